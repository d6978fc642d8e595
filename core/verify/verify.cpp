// SPDX-License-Identifier: Apache-2.0
#include "verify/verify.h"

#include <cmath>
#include <cstring>
#include <sstream>
#include <unordered_map>

#include "verify/truth.h"

namespace hsdp {

bool bitEqual(const Tensor& a, const Tensor& b) {
    if (a.shape != b.shape) return false;
    for (size_t i = 0; i < a.data.size(); ++i)
        if (std::memcmp(&a.data[i], &b.data[i], sizeof(float)) != 0 || std::isnan(a.data[i]))
            return false;
    return true;
}

std::string shapeText(const std::vector<int64_t>& shape) {
    std::ostringstream os;
    os << '[';
    for (size_t i = 0; i < shape.size(); ++i) os << (i ? ", " : "") << shape[i];
    os << ']';
    return os.str();
}

namespace {

uint64_t rowHash(const float* row, int64_t len) {
    uint64_t h = 1469598103934665603ull;
    for (int64_t i = 0; i < len; ++i) {
        uint32_t bits;
        std::memcpy(&bits, row + i, 4);
        h = (h ^ bits) * 1099511628211ull;
    }
    return h;
}

bool rowEqual(const float* a, const float* b, int64_t len) {
    return std::memcmp(a, b, size_t(len) * sizeof(float)) == 0;
}

// Rows of a tensor along dim 0, with the label (global row) of each.
struct Rows {
    const Tensor* t;
    std::vector<int64_t> labels;
    int64_t len() const {
        return t->shape.empty() || t->shape[0] == 0 ? 0 : t->numel() / t->shape[0];
    }
    int64_t count() const { return t->shape.empty() ? 1 : t->shape[0]; }
    const float* row(int64_t i) const { return t->data.data() + i * len(); }
};

enum class Kind { Moved, Padding, Garbage, Extra, Missing };

struct Run {
    Kind kind;
    int64_t from, to;        // labels of the wrong rows (inclusive)
    int64_t srcFrom, srcTo;  // Moved: labels of the rows they hold
};

std::string span(int64_t a, int64_t b) {
    return a == b ? std::to_string(a) : std::to_string(a) + ".." + std::to_string(b);
}

// An update is evidence about rows that were applied, not held.
std::string updateRunText(int rank, const Run& r) {
    std::ostringstream os;
    os << "rank " << rank << ' ';
    switch (r.kind) {
        case Kind::Moved:
            os << "applied update rows " << span(r.srcFrom, r.srcTo) << " to rows "
               << span(r.from, r.to);
            break;
        case Kind::Padding:
            os << "applied an update read from padding to rows " << span(r.from, r.to);
            break;
        case Kind::Garbage:
            os << "applied a wrong update to rows " << span(r.from, r.to);
            break;
        case Kind::Extra:
            os << "got extra update rows " << span(r.from, r.to);
            break;
        case Kind::Missing:
            os << "got no update for rows " << span(r.from, r.to);
            break;
    }
    return os.str();
}

std::string runText(int rank, const std::string& what, const std::string& verb, const Run& r) {
    if (what == "update") return updateRunText(rank, r);
    std::ostringstream os;
    os << "rank " << rank << ' ';
    switch (r.kind) {
        case Kind::Moved:
            os << "expected rows " << span(r.from, r.to) << " got rows "
               << span(r.srcFrom, r.srcTo);
            break;
        case Kind::Padding:
            os << verb << " rows " << span(r.from, r.to) << " from padding";
            break;
        case Kind::Garbage:
            // Their values are no row of the truth: neither moved nor from padding.
            os << "rows " << span(r.from, r.to) << " match no row of the true result";
            break;
        case Kind::Extra:
            os << verb << " extra rows " << span(r.from, r.to);
            break;
        case Kind::Missing:
            os << "lacks rows " << span(r.from, r.to);
            break;
    }
    return os.str();
}

// Classifies every wrong row of `got` against `expected` (same trailing
// shape), tracing it back among `candidates`, merged into runs.
std::vector<Run> wrongRows(const Rows& got, const Rows& expected, const Rows& candidates) {
    std::unordered_multimap<uint64_t, int64_t> index;
    const int64_t len = expected.len();
    const bool traceable = len >= 2 && candidates.len() == len;
    if (traceable)
        for (int64_t j = 0; j < candidates.count(); ++j)
            index.emplace(rowHash(candidates.row(j), len), j);
    std::vector<Run> runs;
    auto push = [&](Kind k, int64_t label, int64_t src) {
        if (!runs.empty()) {
            Run& last = runs.back();
            bool adjacent = last.kind == k && last.to + 1 == label &&
                            (k != Kind::Moved || last.srcTo + 1 == src);
            if (adjacent) {
                last.to = label;
                last.srcTo = src;
                return;
            }
        }
        runs.push_back({k, label, label, src, src});
    };
    for (int64_t i = 0; i < got.count(); ++i) {
        const bool extra = i >= expected.count();
        const int64_t label =
            extra ? (expected.labels.empty() ? i
                                             : expected.labels.back() + 1 + (i - expected.count()))
                  : expected.labels[size_t(i)];
        const float* g = got.row(i);
        if (!extra && rowEqual(g, expected.row(i), len)) continue;
        bool nan = false;
        for (int64_t k = 0; k < len && !nan; ++k) nan = std::isnan(g[k]);
        if (nan) {
            push(Kind::Padding, label, -1);
            continue;
        }
        int64_t source = -1;
        if (traceable) {
            auto [b, e] = index.equal_range(rowHash(g, len));
            for (auto it = b; it != e && source < 0; ++it)
                if (rowEqual(g, candidates.row(it->second), len))
                    source = candidates.labels[size_t(it->second)];
        }
        if (extra)
            push(Kind::Extra, label, -1);
        else if (source >= 0)
            push(Kind::Moved, label, source);
        else
            push(Kind::Garbage, label, -1);
    }
    for (int64_t i = got.count(); i < expected.count(); ++i)
        push(Kind::Missing, expected.labels[size_t(i)], -1);
    return runs;
}

Mismatch describe(int rank, const std::string& what, const std::string& verb, const Rows& got,
                  const Rows& expected, const Rows& candidates) {
    Mismatch m;
    m.rank = rank;
    m.what = what;
    std::vector<std::string> parts;
    const bool sameTrailing =
        got.len() == expected.len() &&
        std::equal(got.t->shape.begin() + (got.t->shape.empty() ? 0 : 1), got.t->shape.end(),
                   expected.t->shape.begin() + (expected.t->shape.empty() ? 0 : 1),
                   expected.t->shape.end());
    if (got.t->shape != expected.t->shape)
        parts.push_back("rank " + std::to_string(rank) + " " + verb + " shape " +
                        shapeText(got.t->shape) + ", expected " + shapeText(expected.t->shape));
    if (sameTrailing) {
        for (const auto& r : wrongRows(got, expected, candidates)) {
            parts.push_back(runText(rank, what, verb, r));
            if (r.kind == Kind::Extra) continue;
            m.rows.push_back({r.from, r.to + 1});
            m.heldRows.push_back(r.kind == Kind::Moved ? IndexRange{r.srcFrom, r.srcTo + 1}
                                                       : IndexRange{});
        }
    }
    const int64_t n = std::min(got.t->numel(), expected.t->numel());
    for (int64_t k = 0; k < n; ++k) {
        float g = got.t->data[size_t(k)], e = expected.t->data[size_t(k)];
        if (std::memcmp(&g, &e, 4) != 0 || std::isnan(g)) {
            m.firstBadFlat = k;
            m.expected = e;
            m.got = g;
            break;
        }
    }
    // Without row evidence (1-D, other trailing shape) the first wrong element says where.
    if ((parts.empty() || !sameTrailing) && m.firstBadFlat >= 0) {
        std::ostringstream first;
        first << "rank " << rank << " first wrong element " << m.firstBadFlat << ": expected "
              << m.expected << " got " << m.got;
        parts.push_back(first.str());
    }
    std::ostringstream os;
    for (size_t i = 0; i < parts.size(); ++i) os << (i ? "; " : "") << parts[i];
    m.text = os.str();
    return m;
}

}  // namespace

std::optional<Mismatch> compareGathered(int rank, const Tensor& got, const Tensor& truth) {
    if (bitEqual(got, truth)) return std::nullopt;
    Rows expected{&truth, iota(truth.shape.empty() ? 1 : truth.shape[0])};
    Rows g{&got, {}};
    return describe(rank, "gather", "gathered", g, expected, expected);
}

std::optional<Mismatch> compareLocal(int rank, const Tensor& got, const Tensor& expectedGlobal,
                                     const ShardLayout& layout, const std::string& what) {
    Tensor expected = shardOf(expectedGlobal, layout);
    if (bitEqual(got, expected)) return std::nullopt;
    std::vector<int64_t> labels;
    if (!layout.dims.empty())
        for (const auto& r : layout.dims[0])
            for (int64_t i = r.begin; i < r.end; ++i) labels.push_back(i);
    else
        labels.push_back(0);
    // Candidates: every global row, restricted to this rank's trailing index sets.
    ShardLayout allRows = layout;
    if (!allRows.dims.empty()) allRows.dims[0] = {IndexRange{0, expectedGlobal.shape[0]}};
    Tensor candidates = shardOf(expectedGlobal, allRows);
    Rows exp{&expected, labels};
    Rows cand{&candidates, iota(candidates.shape.empty() ? 1 : candidates.shape[0])};
    Rows g{&got, {}};
    return describe(rank, what, "holds", g, exp, cand);
}

}  // namespace hsdp
