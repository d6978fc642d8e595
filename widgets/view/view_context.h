// SPDX-License-Identifier: Apache-2.0
#pragma once

class QWidget;

namespace hsdp {

class PlanDiffTracker;
class PlanSelection;
class ScenarioDocument;

// What a view is made with. Every view follows the one selection; the
// window's own tools also get its plan-diff tracker and its edited document.
// Views made for a picture (a screenshot, a report) get the selection alone
// and no parent: the registry marks the views that need more.
struct ViewContext {
    PlanSelection* selection = nullptr;
    PlanDiffTracker* planDiff = nullptr;
    ScenarioDocument* document = nullptr;
    QWidget* parent = nullptr;
};

}  // namespace hsdp
