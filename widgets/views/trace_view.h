#pragma once

#include <QWidget>

#include "models/plan_selection.h"
#include "models/run_data.h"
#include "views/trace_canvas.h"

class QComboBox;

namespace hsdp {

// The run's trace: a small toolbar (colour by phase or op, zoom, fit) over
// the TraceCanvas timeline. Everything it shows comes from RunData's trace.
class TraceView : public QWidget {
    Q_OBJECT
public:
    explicit TraceView(PlanSelection* selection, QWidget* parent = nullptr);

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
