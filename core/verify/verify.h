// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>

#include "tensor/tensor.h"
#include "types/geometry.h"
#include "verify/run_result.h"

namespace hsdp {

// Bit-for-bit equality (NaN never equal, -0 != +0).
bool bitEqual(const Tensor& a, const Tensor& b);

// A full tensor a rank gathered against the truth (global shape). nullopt
// when exact; otherwise which rows are wrong and where they came from
// (padding, another row of the truth, nothing known).
std::optional<Mismatch> compareGathered(int rank, const Tensor& got, const Tensor& truth);

// A rank's local tensor against its shard of `expectedGlobal` (rows named in
// global numbering; a wrong row is traced back to the row of `expectedGlobal`
// it equals). `what` names the check: "step", "tp", or "update" (an update
// slice about to be applied; the text then says which rows were applied where).
std::optional<Mismatch> compareLocal(int rank, const Tensor& got, const Tensor& expectedGlobal,
                                     const ShardLayout& layout, const std::string& what);

// "[5, 8]"
std::string shapeText(const std::vector<int64_t>& shape);

}  // namespace hsdp
