// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <vector>

#include "tensor_layout/tensor_blocks.h"

namespace hsdp {

// Labels of the tensor layout view.

// "r0,r4" for a few ranks, "16 ranks: 0,4,8,…" for many; ", " lets a long list wrap.
QString ranksText(const std::vector<int>& ranks, int shown = 4,
                  const QString& separator = QStringLiteral(","));
// The group's coordinate on the mesh dims that shard: "dp_shard=1, tp=0";
// "every rank (local)" for a plain tensor, "all ranks" when nothing shards.
QString groupCoordText(const TensorBlocks& blocks, const ShardGroup& group, const Mesh* mesh);
// How many ranks hold each piece and why: "each piece on 2 ranks:
// replicated over dp_replicate"; partial mesh dims hold partial sums.
QString copiesText(const TensorBlocks& blocks, const ParamSpec& spec, const Mesh* mesh);
// Which pieces a layout hazard code marks: "uneven-shard (short and empty pieces)".
QString hazardText(const std::string& code);
// Global index ranges, Python-slice style: "0:4" or "0:2, 4:6".
QString rangesText(const IndexSet& set, int shown = 6);
// A block's global indices, "[0:4, 0:8]"; one range for a 1-D param.
QString blockRangeText(const TensorBlocks& blocks, const TensorBlock& block);
QString shapeListText(const std::vector<int64_t>& shape);  // "[8, 8]"
// "dim 0" or "dim 0 (8)"; "—" for none.
QString dimText(int dim, const std::vector<int64_t>& shape);

}  // namespace hsdp
