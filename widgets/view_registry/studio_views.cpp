// SPDX-License-Identifier: Apache-2.0
#include "view_registry/studio_views.h"

#include <QtGlobal>

#include "buffer_layout/buffer_layout_widget.h"
#include "diagnostics/diagnostics_widget.h"
#include "editing/edit_widget.h"
#include "gather_strategy/gather_strategy_widget.h"
#include "job/job_widget.h"
#include "memory/memory_widget.h"
#include "mesh/mesh_widget.h"
#include "owner_balance/owner_balance_widget.h"
#include "plan_diff/plan_diff_widget.h"
#include "plan_tree/plan_tree_widget.h"
#include "steps/step_widget.h"
#include "tensor_layout/tensor_layout_widget.h"
#include "trace/predicted_timeline_widget.h"
#include "trace/trace_widget.h"
#include "traffic/traffic_widget.h"
#include "verification/verification_widget.h"
#include "wrong_rows/wrong_rows_widget.h"

namespace hsdp {

namespace {

// The views that take the selection alone.
template <typename View>
StudioView* withSelection(const ViewContext& context) {
    return new View(context.selection, context.parent);
}

StudioView* planDiff(const ViewContext& context) {
    return new PlanDiffWidget(context.planDiff, context.selection, context.parent);
}

StudioView* editing(const ViewContext& context) {
    return new EditWidget(context.document, context.parent);
}

}  // namespace

const std::vector<ViewRegistration>& studioViews() {
#define TITLE(text) QT_TRANSLATE_NOOP("StudioViews", text)
    static const std::vector<ViewRegistration> views = {
        {"mesh", TITLE("Mesh"), ViewPlace::Central, false, withSelection<MeshWidget>},
        {"planTree", TITLE("Plan tree"), ViewPlace::Left, false, withSelection<PlanTreeWidget>},
        {"diagnostics", TITLE("Diagnostics"), ViewPlace::Bottom, false,
         withSelection<DiagnosticsWidget>},
        {"ownerBalance", TITLE("Owner balance"), ViewPlace::Right, false,
         withSelection<OwnerBalanceWidget>},
        {"tensorLayout", TITLE("Tensor layout"), ViewPlace::Right, false,
         withSelection<TensorLayoutWidget>},
        {"planDiff", TITLE("What changed"), ViewPlace::Bottom, true, planDiff},
        {"job", TITLE("Job"), ViewPlace::Bottom, false, withSelection<JobWidget>},
        {"editing", TITLE("What-if editing"), ViewPlace::Left, true, editing},
        {"verification", TITLE("Verification"), ViewPlace::Bottom, false,
         withSelection<VerificationWidget>},
        {"steps", TITLE("Steps"), ViewPlace::BottomScrolled, false, withSelection<StepWidget>},
        {"trace", TITLE("Trace"), ViewPlace::BottomScrolled, false, withSelection<TraceWidget>},
        {"predicted", TITLE("Predicted timeline"), ViewPlace::BottomScrolled, false,
         withSelection<PredictedTimelineWidget>},
        {"gatherStrategy", TITLE("Gather strategy"), ViewPlace::BottomScrolled, false,
         withSelection<GatherStrategyWidget>},
        {"memory", TITLE("Memory"), ViewPlace::BottomScrolled, false, withSelection<MemoryWidget>},
        {"bufferLayout", TITLE("Buffer layout"), ViewPlace::BottomScrolled, false,
         withSelection<BufferLayoutWidget>},
        {"wrongRows", TITLE("Wrong rows"), ViewPlace::BottomScrolled, false,
         withSelection<WrongRowsWidget>},
        {"traffic", TITLE("Traffic"), ViewPlace::BottomScrolled, false,
         withSelection<TrafficWidget>},
    };
#undef TITLE
    return views;
}

const ViewRegistration* findStudioView(const QString& id) {
    for (const ViewRegistration& view : studioViews())
        if (id == QLatin1String(view.id)) return &view;
    return nullptr;
}

std::unique_ptr<StudioView> makeStudioView(const ViewRegistration& view,
                                           const ViewContext& context) {
    ViewContext alone = context;
    alone.parent = nullptr;
    return std::unique_ptr<StudioView>(view.make(alone));
}

QString screenshotFileName(const ViewRegistration& view) {
    QString name;
    for (const QChar c : QLatin1String(view.id)) {
        if (c.isUpper()) name += QLatin1Char('-');
        name += c.toLower();
    }
    return name + QStringLiteral(".png");
}

}  // namespace hsdp
