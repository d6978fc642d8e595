// SPDX-License-Identifier: Apache-2.0
#include "plan_tree/widest_text.h"

#include <algorithm>

namespace hsdp {

namespace {

// How many of the widest estimates are shaped exactly.
constexpr size_t kShaped = 24;

}  // namespace

int WidestText::estimate(const QString& text) {
    int sum = 0;
    for (QChar c : text) {
        auto it = advances_.find(c.unicode());
        if (it == advances_.end())
            it = advances_.insert(c.unicode(), metrics_.horizontalAdvance(c));
        sum += *it;
    }
    return sum;
}

void WidestText::add(const QString& text, int offset) {
    candidates_.push_back({offset + estimate(text), text, offset});
    // Keep the list short: the widest kShaped of every 4 * kShaped.
    if (candidates_.size() < 4 * kShaped) return;
    std::nth_element(
        candidates_.begin(), candidates_.begin() + kShaped, candidates_.end(),
        [](const Candidate& a, const Candidate& b) { return a.estimate > b.estimate; });
    candidates_.resize(kShaped);
}

int WidestText::width() const {
    std::vector<const Candidate*> widest;
    for (const Candidate& c : candidates_) widest.push_back(&c);
    const size_t shaped = std::min(kShaped, widest.size());
    std::partial_sort(
        widest.begin(), widest.begin() + shaped, widest.end(),
        [](const Candidate* a, const Candidate* b) { return a->estimate > b->estimate; });
    int out = 0;
    for (size_t i = 0; i < shaped; ++i)
        out = std::max(out, widest[i]->offset + metrics_.horizontalAdvance(widest[i]->text));
    return out;
}

}  // namespace hsdp
