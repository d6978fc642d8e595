// MainWindow's run views: the trace timeline, the step-by-step panel, the
// traffic charts, the buffer layout and the wrong-rows comparison. Each takes
// every finished run (runReady) and follows the shared selection.
#include <QDockWidget>
#include <QScrollArea>

#include "buffer_layout/buffer_layout_widget.h"
#include "steps/step_widget.h"
#include "tensor_layout/tensor_layout_widget.h"
#include "trace/trace_widget.h"
#include "traffic/traffic_widget.h"
#include "verification/verification_widget.h"
#include "window/main_window.h"
#include "wrong_rows/wrong_rows_widget.h"

namespace hsdp {

void MainWindow::buildRunViews(QDockWidget* tabWith) {
    traceView_ = new TraceWidget(selection_, this);
    stepPanel_ = new StepWidget(selection_, this);
    traffic_ = new TrafficWidget(selection_, this);
    bufferLayout_ = new BufferLayoutWidget(selection_, this);
    wrongRows_ = new WrongRowsWidget(selection_, this);
    // The bottom row's height is the user's choice, so every view sits in a
    // scroll area: a short dock scrolls the view rather than squeezing it
    // below its layout's minimum, where a chart, its caption and its tables
    // were drawn over each other. (A minimum set on the view itself would
    // override its layout's and let that happen.)
    const std::pair<QWidget*, const char*> wide[] = {{stepPanel_, "Steps"},
                                                     {traceView_, "Trace"},
                                                     {bufferLayout_, "Buffer layout"},
                                                     {wrongRows_, "Wrong rows"},
                                                     {traffic_, "Traffic"}};
    for (const auto& [view, title] : wide) {
        auto* scroll = new QScrollArea(this);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setWidget(view);
        // Small enough that the window fits a 1366x768 screen.
        scroll->setMinimumSize(240, 80);
        QString name = QString::fromLatin1(title).remove(QLatin1Char(' ')) + QStringLiteral("Dock");
        name[0] = name[0].toLower();
        QDockWidget* dock = addViewDock(scroll, tr(title), name, Qt::BottomDockWidgetArea);
        tabifyDockWidget(tabWith, dock);
    }
    wrongRows_->setMinimumSize(560, 360);
    tabWith->raise();
    connect(this, &MainWindow::runReady, this, [this] {
        // After a run, its timeline is what the bottom row shows first. (Not
        // while hidden, e.g. screenshot mode: raising a never-shown tab there
        // left the dock a few pixels wide.)
        auto* dock = findChild<QDockWidget*>(QStringLiteral("traceDock"));
        if (dock && isVisible()) dock->raise();
    });
}

// Every view of runs at once, so that none shows a run the others dropped.
// The wrong-rows view keeps a corrected and a reference run: no run clears
// both.
void MainWindow::showRun(const RunData& run) {
    verification_->setRun(run);
    traceView_->setRun(run);
    stepPanel_->setRun(run);
    traffic_->setRun(run);
    bufferLayout_->setRun(run);
    if (run.isValid())
        wrongRows_->setRun(run);
    else
        wrongRows_->setRuns({}, {});
    tensorLayout_->setRun(run);
}

}  // namespace hsdp
