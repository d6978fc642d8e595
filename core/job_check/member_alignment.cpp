// SPDX-License-Identifier: Apache-2.0
#include "job_check/member_alignment.h"

#include <algorithm>

namespace hsdp {

RecordedForm formOf(const FlightRecorderEntry& e) {
    return {e.profilingName, e.inputSizes, e.outputSizes, e.inputDtypes, e.outputDtypes};
}

namespace {

class Aligner {
public:
    Aligner(const std::vector<const FlightRecorderEntry*>& entries, int64_t length,
            const std::function<RecordedForm(int64_t)>& planned)
        : entries_(entries), length_(length), planned_(planned) {}

    std::vector<AlignedItem> run() {
        if (entries_.empty()) return out_;
        // A ring buffer may have dropped the oldest entries: start where the first one is.
        int64_t j = std::max<int64_t>(0, entries_.front()->collectiveSeqId - 1);
        for (size_t i = 0; i < entries_.size();) {
            if (length_ == 0 || entries_[i]->isP2P) {
                out_.push_back({AlignKind::Unexpected, -1, entries_[i++], nullptr});
                continue;
            }
            step(i, j);
        }
        return out_;
    }

private:
    bool same(size_t i, int64_t j) const {
        return i < entries_.size() && formOf(*entries_[i]) == planned_(j);
    }

    // One decision at entry i, position j. Where the record could be read
    // several ways (a skip, a swap or an extra call), the reading the next
    // entry confirms wins, then swap before skip before extra.
    void step(size_t& i, int64_t& j) {
        const FlightRecorderEntry* e = entries_[i];
        if (same(i, j)) {
            out_.push_back({AlignKind::Match, j++, e, nullptr}), ++i;
            return;
        }
        const bool swapped = same(i, j + 1) && same(i + 1, j);
        const bool skipped = same(i, j + 1);  // it went on to the next one
        const bool extra = same(i + 1, j);    // j comes next: this one is extra
        const bool swapGoesOn = swapped && same(i + 2, j + 2);
        const bool skipGoesOn = skipped && same(i + 1, j + 2);
        const bool extraGoesOn = extra && same(i + 2, j + 1);
        const bool anyGoesOn = swapGoesOn || skipGoesOn || extraGoesOn;
        if (anyGoesOn ? swapGoesOn : swapped) {
            out_.push_back({AlignKind::Order, j, e, entries_[i + 1]});
            i += 2, j += 2;
        } else if (anyGoesOn ? skipGoesOn : skipped) {
            out_.push_back({AlignKind::Missing, j++, nullptr, nullptr});
        } else if (extra) {
            out_.push_back({AlignKind::Unexpected, -1, e, nullptr}), ++i;
        } else if (e->profilingName == planned_(j).profilingName) {
            out_.push_back({sizesAgree(*e, planned_(j)) ? AlignKind::Dtype : AlignKind::Size, j++,
                            e, nullptr});
            ++i;
        } else {
            out_.push_back({AlignKind::Unexpected, -1, e, nullptr}), ++i;
        }
    }

    static bool sizesAgree(const FlightRecorderEntry& e, const RecordedForm& f) {
        return e.inputSizes == f.inputSizes && e.outputSizes == f.outputSizes;
    }

    const std::vector<const FlightRecorderEntry*>& entries_;
    int64_t length_;
    const std::function<RecordedForm(int64_t)>& planned_;
    std::vector<AlignedItem> out_;
};

}  // namespace

std::vector<AlignedItem> alignMember(const std::vector<const FlightRecorderEntry*>& entries,
                                     int64_t programLength,
                                     const std::function<RecordedForm(int64_t)>& planned) {
    return Aligner(entries, programLength, planned).run();
}

}  // namespace hsdp
