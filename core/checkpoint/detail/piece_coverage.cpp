// SPDX-License-Identifier: Apache-2.0
#include "checkpoint/detail/piece_coverage.h"

#include <algorithm>
#include <set>

#include "checkpoint/checkpoint_error.h"

namespace hsdp {

namespace {

using Box = std::pair<std::vector<int64_t>, std::vector<int64_t>>;  // offsets, sizes

bool overlap(const Box& a, const Box& b) {
    for (size_t d = 0; d < a.first.size(); ++d) {
        const int64_t begin = std::max(a.first[d], b.first[d]);
        const int64_t end = std::min(a.first[d] + a.second[d], b.first[d] + b.second[d]);
        if (begin >= end) return false;
    }
    return true;
}

// Each box spans exactly one cell between consecutive cut points per dim:
// then distinct boxes are distinct cells, and as many as the cells cover all.
bool formsGrid(const std::vector<Box>& boxes, size_t ndim, uint64_t& cells) {
    cells = 1;
    std::vector<std::vector<int64_t>> cuts(ndim);
    for (size_t d = 0; d < ndim; ++d) {
        std::set<int64_t> points;
        for (const Box& b : boxes) {
            points.insert(b.first[d]);
            points.insert(b.first[d] + b.second[d]);
        }
        cuts[d].assign(points.begin(), points.end());
        cells *= cuts[d].size() - 1;
    }
    for (const Box& b : boxes)
        for (size_t d = 0; d < ndim; ++d) {
            auto at = std::lower_bound(cuts[d].begin(), cuts[d].end(), b.first[d]);
            if (at + 1 == cuts[d].end() || *(at + 1) != b.first[d] + b.second[d]) return false;
        }
    return true;
}

std::string rangesText(const Box& box) {
    std::string text = "[";
    for (size_t d = 0; d < box.first.size(); ++d)
        text += (d ? ", " : "") + std::to_string(box.first[d]) + ":" +
                std::to_string(box.first[d] + box.second[d]);
    return text + "]";
}

}  // namespace

std::string pieceText(const TensorPiece& piece) {
    std::string text = rangesText({piece.offsets, piece.sizes});
    if (piece.rank >= 0) text += " (rank " + std::to_string(piece.rank) + ")";
    return text;
}

void checkPieceCoverage(CheckpointTensor& tensor, const std::vector<CheckpointFile>& files) {
    std::vector<Box> boxes;
    for (const TensorPiece& p : tensor.pieces)
        if (p.numel() > 0) boxes.emplace_back(p.offsets, p.sizes);
    std::sort(boxes.begin(), boxes.end());
    boxes.erase(std::unique(boxes.begin(), boxes.end()), boxes.end());
    const std::string file = files[size_t(tensor.pieces.front().file)].path;
    const auto fail = [&](const std::string& problem) {
        throw CheckpointError(file, tensor.name, problem);
    };
    for (size_t i = 1; i < boxes.size(); ++i)
        if (boxes[i].first == boxes[i - 1].first)
            fail("two saved pieces start at the same place but differ: " +
                 rangesText(boxes[i - 1]) + " and " + rangesText(boxes[i]));
    if (tensor.numel() == 0 || boxes.empty()) return;
    uint64_t cells = 0;
    const bool grid = formsGrid(boxes, tensor.shape.size(), cells);
    if (grid && cells == boxes.size()) return;
    // Not a full grid: check pairwise (only odd pieces come here) that they
    // do not overlap, then whether they hold every element.
    uint64_t volume = 0;
    for (size_t i = 0; i < boxes.size(); ++i) {
        volume += uint64_t(TensorPiece{0, -1, boxes[i].first, boxes[i].second}.numel());
        for (size_t j = i + 1; j < boxes.size() && !grid; ++j)
            if (overlap(boxes[i], boxes[j]))
                fail("saved pieces " + rangesText(boxes[i]) + " and " + rangesText(boxes[j]) +
                     " overlap");
    }
    if (volume != uint64_t(tensor.numel()))
        fail("the saved pieces hold " + std::to_string(volume) + " of its " +
             std::to_string(tensor.numel()) + " elements (is a rank's file missing?)");
    tensor.irregularPieces = true;
}

}  // namespace hsdp
