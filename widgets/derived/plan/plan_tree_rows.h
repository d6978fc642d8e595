// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <array>
#include <cstdint>
#include <vector>

#include "derived/plan/plan_index.h"
#include "plan/plan.h"
#include "types/scenario.h"

namespace hsdp {

// The plan tree as plain display rows: meshes > groups > batches > params,
// then the no-comm, rejected and TP-transition branches. Built off the GUI
// thread by buildPlanTreeRows; PlanTreeModel only serves these rows.
enum class PlanTreeColumn { Name, Owner, Numel, Bytes, LocalShape, Placements, Diagnostics, Count };
constexpr int kPlanTreeColumnCount = static_cast<int>(PlanTreeColumn::Count);

enum class PlanNodeKind { Mesh, Group, Batch, Param, Section, TpTransition };

struct PlanTreeNode {
    PlanNodeKind kind = PlanNodeKind::Section;
    int parent = -1;  // node index, -1 for a top-level row
    int row = 0;      // position among the parent's children
    std::vector<int> children;
    std::array<QString, kPlanTreeColumnCount> text;
    std::array<qint64, kPlanTreeColumnCount> sortKey{};  // numeric columns; else text sorts
    int param = -1;                                      // param index for Param rows
    int group = -1;  // Plan::groups position for Group/Batch/Param rows
    int batch = -1;
    int transition = -1;  // Plan::tpTransitions position for TpTransition rows
    bool hasError = false;
    bool hasWarning = false;
    QString filterText;  // lower-case name and diagnostic codes
};

struct PlanTreeRows {
    std::vector<PlanTreeNode> nodes;
    std::vector<int> roots;
    std::vector<int> paramNode;  // by param index: node index, or -1
};

PlanTreeRows buildPlanTreeRows(const Scenario& scenario, const Plan& plan, const PlanIndex& index);

// PyTorch's spelling of placements: [Replicate(), Shard(dim=0), _StridedShard(dim=0, sf=4)].
QString pytorchPlacements(const std::vector<Placement>& placements);
// "[4, 8]" and, when ranks hold different shapes, "[4, 8] … [3, 8] (2 shapes)".
QString localShapeText(const ParamSpec& spec, const Mesh& mesh);

}  // namespace hsdp
