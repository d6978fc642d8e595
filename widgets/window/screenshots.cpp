#include "window/screenshots.h"

#include <QApplication>
#include <QDir>
#include <QImage>
#include <QTreeView>
#include <algorithm>

#include "buffer_layout/buffer_layout_widget.h"
#include "diagnostics/diagnostics_widget.h"
#include "mesh/mesh_widget.h"
#include "owner_balance/owner_balance_widget.h"
#include "plan_tree/plan_tree_widget.h"
#include "steps/step_widget.h"
#include "tensor_layout/tensor_layout_widget.h"
#include "trace/trace_widget.h"
#include "traffic/traffic_widget.h"
#include "verification/verification_widget.h"
#include "window/main_window.h"
#include "wrong_rows/wrong_rows_widget.h"

namespace hsdp {

namespace {

// A view rendered on its own at a size that shows its columns, never on screen.
template <typename View>
QImage renderStandalone(View& view, const QSize& size) {
    view.setAttribute(Qt::WA_DontShowOnScreen);
    view.resize(size);
    view.show();
    QApplication::processEvents();
    return view.grab().toImage();
}

// The run views of the window's last run, each rendered on its own at a
// picture's size (the docks' sizes in a hidden window mean nothing), and a
// few steps: the first, a quarter and half-way through, the last.
void addRunImages(MainWindow& window, QList<QPair<QString, QImage>>& images) {
    const RunData& run = window.lastRun();
    PlanSelection* selection = window.selection();
    const QSize wide(1600, 900);
    TraceWidget trace(selection);
    trace.setRun(run);
    images << qMakePair(QStringLiteral("trace.png"), renderStandalone(trace, wide));
    TrafficWidget traffic(selection);
    traffic.setRun(run);
    images << qMakePair(QStringLiteral("traffic.png"), renderStandalone(traffic, wide));
    WrongRowsWidget wrongRows(selection);
    wrongRows.setRun(run);
    images << qMakePair(QStringLiteral("wrong-rows.png"), wrongRows.renderImage(QSize(1200, 800)));
    BufferLayoutWidget buffers(selection);
    buffers.setRun(run);
    StepWidget steps(selection);
    steps.setRun(run);
    const int count = steps.stepCount();
    std::vector<int> chosen = {0, count / 4, count / 2, count - 1};
    chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
    for (int step : chosen) {
        if (step < 0) continue;
        steps.setStep(step);
        images << qMakePair(QStringLiteral("step-%1.png").arg(step + 1),
                            renderStandalone(steps, QSize(1200, 420)));
    }
    // The buffer layout of the first step's collective: a batch fused and gathered.
    if (count > 0) steps.setStep(0);
    images << qMakePair(QStringLiteral("buffer-layout.png"),
                        renderStandalone(buffers, QSize(1400, 900)));
}

}  // namespace

QStringList writeScreenshots(MainWindow& window, const QString& dir, QString* error) {
    QDir().mkpath(dir);
    const PlanResult& result = window.session()->current();
    QList<QPair<QString, QImage>> images;
    images << qMakePair(QStringLiteral("mesh.png"),
                        window.meshWidget()->view()->renderImage(QSize(1400, 900)));
    PlanTreeWidget tree(window.selection());
    tree.setResult(result);
    images << qMakePair(QStringLiteral("plan-tree.png"), renderStandalone(tree, QSize(1400, 800)));
    DiagnosticsWidget diagnostics(window.selection());
    diagnostics.setResult(result);
    images << qMakePair(QStringLiteral("diagnostics.png"),
                        renderStandalone(diagnostics, QSize(1200, 360)));
    OwnerBalanceWidget balance(window.selection());
    balance.setResult(result);
    images << qMakePair(QStringLiteral("owner-balance.png"), balance.renderImage(QSize(1200, 900)));
    images << qMakePair(QStringLiteral("tensor-layout.png"),
                        window.tensorLayout()->renderImage(QSize(1200, 800)));
    if (window.lastRun().isValid()) {
        VerificationWidget verification(window.selection());
        verification.setCurrentPlan(result);
        verification.setRun(window.lastRun());
        images << qMakePair(QStringLiteral("verification.png"),
                            renderStandalone(verification, QSize(1400, 700)));
        addRunImages(window, images);
    }
    window.resize(1600, 1000);
    window.show();
    QApplication::processEvents();
    images << qMakePair(QStringLiteral("window.png"), window.grab().toImage());
    QStringList written;
    for (const auto& [name, image] : images) {
        QString path = QDir(dir).absoluteFilePath(name);
        if (!image.save(path)) {
            if (error) *error = QStringLiteral("cannot write %1").arg(path);
            continue;
        }
        written << path;
    }
    return written;
}

}  // namespace hsdp
