// SPDX-License-Identifier: Apache-2.0
#include "checkpoint/saved_sharding.h"

#include <algorithm>
#include <functional>

#include "types/geometry.h"
#include "types/mesh.h"

namespace hsdp {

namespace {

// A rank's contiguous box; `empty`: it holds nothing; `split`: not one box.
struct Box {
    std::vector<int64_t> begin, size;
    bool empty = false;
    bool split = false;
    bool operator<(const Box& o) const { return std::tie(begin, size) < std::tie(o.begin, o.size); }
    bool operator==(const Box& o) const { return begin == o.begin && size == o.size; }
};

Box boxOf(const ShardLayout& layout) {
    Box box;
    for (const IndexSet& dim : layout.dims) {
        if (indexCount(dim) == 0) return {{}, {}, true, false};
        if (dim.size() != 1) box.split = true;
        box.begin.push_back(dim.front().begin);
        box.size.push_back(indexCount(dim));
    }
    return box;
}

class Fitter {
public:
    Fitter(const std::vector<int64_t>& shape, const std::vector<TensorPiece>& pieces,
           const std::vector<int64_t>& meshShape)
        : shape_(shape), mesh_(meshShape), coords_(allCoordinates(meshShape)) {
        for (const TensorPiece& p : pieces) {
            if (p.numel() == 0) continue;
            Box box{p.offsets, p.sizes};
            known_.emplace_back(p.rank, box);
            distinct_.push_back(std::move(box));
        }
        std::sort(distinct_.begin(), distinct_.end());
        distinct_.erase(std::unique(distinct_.begin(), distinct_.end()), distinct_.end());
    }

    bool fits(const std::vector<Placement>& placements) const {
        const auto rankBox = [&](int64_t rank) {
            return boxOf(shardLayout(shape_, placements, mesh_, coords_[size_t(rank)]));
        };
        // Each piece where its writer holds it: most candidates fail here, fast.
        for (const auto& [rank, piece] : known_) {
            if (rank < 0) continue;
            if (rank >= int64_t(coords_.size())) return false;
            const Box box = rankBox(rank);
            if (box.empty || box.split || !(box == piece)) return false;
        }
        // Every rank's box among the pieces, every piece some rank's box.
        std::vector<bool> seen(distinct_.size(), false);
        for (size_t r = 0; r < coords_.size(); ++r) {
            const Box box = rankBox(int64_t(r));
            if (box.empty) continue;
            if (box.split) return false;
            const auto at = std::lower_bound(distinct_.begin(), distinct_.end(), box);
            if (at == distinct_.end() || !(*at == box)) return false;
            seen[size_t(at - distinct_.begin())] = true;
        }
        return std::all_of(seen.begin(), seen.end(), [](bool s) { return s; });
    }

private:
    const std::vector<int64_t>& shape_;
    const std::vector<int64_t>& mesh_;
    std::vector<Coord> coords_;
    std::vector<std::pair<int64_t, Box>> known_;  // writer rank, piece
    std::vector<Box> distinct_;
};

// Every placement vector, the last mesh dim chosen first so a strided
// shard's split factor (the later dims splitting the same tensor dim) is known.
void enumerate(int meshDim, int ndim, const std::vector<int64_t>& meshShape,
               std::vector<Placement>& current,
               const std::function<bool(const std::vector<Placement>&)>& visit, bool& done) {
    if (done) return;
    if (meshDim < 0) {
        done = visit(current);
        return;
    }
    std::vector<Placement> options{Placement::replicate()};
    for (int d = 0; d < ndim; ++d) {
        options.push_back(Placement::shard(d));
        int64_t later = 1;
        for (size_t m = size_t(meshDim) + 1; m < current.size(); ++m)
            if (current[m].isShard() && current[m].dim == d) later *= meshShape[m];
        if (later > 1) options.push_back(Placement::stridedShard(d, int(later)));
    }
    for (const Placement& option : options) {
        current[size_t(meshDim)] = option;
        enumerate(meshDim - 1, ndim, meshShape, current, visit, done);
    }
}

}  // namespace

std::optional<std::vector<Placement>> fitSavedPlacements(const std::vector<int64_t>& shape,
                                                         const std::vector<TensorPiece>& pieces,
                                                         const std::vector<int64_t>& meshShape,
                                                         const std::vector<Placement>& preferred) {
    const Fitter fitter(shape, pieces, meshShape);
    if (preferred.size() == meshShape.size() && fitter.fits(preferred)) return preferred;
    std::optional<std::vector<Placement>> found;
    std::vector<Placement> current(meshShape.size());
    bool done = false;
    enumerate(
        int(meshShape.size()) - 1, int(shape.size()), meshShape, current,
        [&](const std::vector<Placement>& candidate) {
            if (!fitter.fits(candidate)) return false;
            found = candidate;
            return true;
        },
        done);
    return found;
}

}  // namespace hsdp
