// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <Qt>

namespace hsdp {

// Data roles shared by the studio's models, so views and proxies can ask any
// row what it stands for without knowing which model it came from.
enum ModelRole {
    SortRole = Qt::UserRole + 1,  // numbers for numeric columns, text otherwise
    FilterRole,                   // lower-case name and diagnostic codes
    ParamRole,                    // int param index, -1 if none
    GroupRole,                    // int Plan::groups position, -1 if none
    BatchRole,                    // int Group::batches position, -1 if none
    TransitionRole,               // int Plan::tpTransitions position, -1 if none
    ComputeRanksRole,  // QList<int>: the ranks that run the row's param's Newton–Schulz
    ParamsRole,        // QList<int>: params a diagnostic names
    TransitionsRole,   // QList<int>: TP transitions a diagnostic names
};

}  // namespace hsdp
