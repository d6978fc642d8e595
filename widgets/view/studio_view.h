// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QImage>
#include <QList>
#include <QSize>
#include <QString>
#include <functional>

#include "derived/job/job_data.h"
#include "derived/plan/plan_result.h"
#include "derived/run/run_data.h"

class QPaintDevice;
class QPainter;
class QWidget;

namespace hsdp {

// One picture a view draws of itself: `part` is the view's own name for it
// ("" its default), `file` the screenshot's name ("" the view's id).
struct ViewShot {
    QString file;
    QSize size;
    QString part;
};

// What the window, --screenshot and the report know of a view. A view is a
// QWidget that implements this too (widget() returns itself); it takes every
// plan and run the window shows and draws itself, never on screen, at any
// size. Register it in studio_views.cpp.
class StudioView {
public:
    virtual ~StudioView() = default;

    virtual QWidget* widget() = 0;
    // A plan is ready (the selection already carried to it) / a run
    // finished, failed or was cancelled (invalid: none). Either may be
    // ignored by a view that does not draw it.
    virtual void showPlan(const PlanResult& plan) { (void)plan; }
    virtual void showRun(const RunData& run) { (void)run; }
    // The plan last shown now has its prediction (or lost it: another
    // cluster, none); only views that draw predictions take it.
    virtual void showPrediction(const PlanResult& plan) { (void)plan; }
    // A job's record was checked against the plan on screen (invalid: none,
    // or cleared by another file); only the Job view draws it.
    virtual void showJob(const JobData& job) { (void)job; }

    // What --screenshot writes of the view as it stands: by default one
    // picture at 1200x800; none (a view without plan or run to draw) is fine.
    virtual QList<ViewShot> screenshots() const { return {ViewShot{{}, QSize(1200, 800), {}}}; }
    // `part` laid out at `size` and painted off screen (by default the
    // whole widget, grabbed).
    virtual QImage picture(const QSize& size, const QString& part);
    // The same into any paint device as drawing commands (a report's PDF
    // keeps them as vectors); by default the picture() image.
    virtual void paintPicture(QPaintDevice& target, const QSize& size, const QString& part);
    // The size a report draws `part` at when it asks for about `size`: no
    // wider, and as tall as the drawing needs at that width (no blank band
    // under a few rows, nothing cut off); by default `size` itself.
    virtual QSize fittedPictureSize(const QSize& size, const QString& part) {
        (void)part;
        return size;
    }

    // Export View's and Copy View as Image's "as on screen": what the view
    // shows now, drawn by picture() and paintPicture() while
    // setDrawingAsShown(true), at this size: the widget's by default; a view
    // with controls or a scrolled canvas gives its drawing's size, whole
    // (no combo boxes, no scroll bars, no legend cut at the dock's edge).
    virtual QSize shownPictureSize();
    // While true, picture() and paintPicture() draw the view as the user
    // has it on screen (zoomed, panned) rather than the whole of it.
    virtual void setDrawingAsShown(bool asShown) { (void)asShown; }
};

// What a view's paintPicture() draws with its own painting code: `paint`
// onto `target`, on white, clipped to `size`.
void paintOnWhite(QPaintDevice& target, const QSize& size,
                  const std::function<void(QPainter&)>& paint);

}  // namespace hsdp
