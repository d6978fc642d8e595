// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>

#include "runs/run_data.h"
#include "shared/plan_selection.h"
#include "studio/studio_view.h"
#include "trace/trace_canvas.h"

class QComboBox;

namespace hsdp {

// The run's trace: a small toolbar (colour by phase or op, zoom, fit) over
// the TraceCanvas timeline. Everything it shows comes from RunData's trace.
class TraceWidget : public QWidget, public StudioView {
    Q_OBJECT
public:
    explicit TraceWidget(PlanSelection* selection, QWidget* parent = nullptr);

    QWidget* widget() override { return this; }
    void showRun(const RunData& run) override { setRun(run); }
    QList<ViewShot> screenshots() const override;
    QImage picture(const QSize& size, const QString&) override { return renderImage(size); }

    void setRun(const RunData& run);
    TraceCanvas* canvas() const { return canvas_; }
    void setColouring(TraceColouring colouring);
    // The widget laid out at `size` and painted, never on screen.
    QImage renderImage(QSize size);

private:
    TraceCanvas* canvas_;
    QComboBox* colouring_;
};

}  // namespace hsdp
