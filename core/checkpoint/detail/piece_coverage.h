// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "checkpoint/checkpoint.h"

namespace hsdp {

// Checks that the distinct non-empty pieces of `tensor` (identical ones are
// one piece saved by several ranks) tile its full shape exactly, and sets
// irregularPieces when they do without forming a grid. Throws
// CheckpointError naming the tensor and the pieces that overlap, or the
// elements no piece holds.
void checkPieceCoverage(CheckpointTensor& tensor, const std::vector<CheckpointFile>& files);

// "[0:2048, 0:4096] (rank 3)", for messages.
std::string pieceText(const TensorPiece& piece);

}  // namespace hsdp
