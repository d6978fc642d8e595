// SPDX-License-Identifier: Apache-2.0
#include "report/report_pictures.h"

#include <QPainter>
#include <stdexcept>

#include "derived/plan/plan_index.h"
#include "derived/plan/plan_selection.h"
#include "view_registry/studio_views.h"

namespace hsdp {

ReportPictures::ReportPictures(PlanResult plan, RunData run, RunData comparison)
    : plan_(std::move(plan)),
      run_(std::move(run)),
      comparison_(std::move(comparison)),
      selection_(std::make_unique<PlanSelection>()) {}

ReportPictures::~ReportPictures() = default;

QSize ReportPictures::fittedSize(const ReportPicture& picture, const QSize& size) {
    StudioView* view = viewFor(picture);
    select(picture);
    return view->fittedPictureSize(size, picture.part);
}

QPicture ReportPictures::record(const ReportPicture& picture, const QSize& size) {
    QPicture recording;
    StudioView* view = viewFor(picture);
    select(picture);
    view->paintPicture(recording, size, picture.part);
    return recording;
}

QImage ReportPictures::image(const ReportPicture& picture, const QSize& size, qreal scale) {
    const QPicture recording = record(picture, size);
    QImage image((QSizeF(size) * scale).toSize(), QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.scale(scale, scale);
    painter.drawPicture(0, 0, recording);
    return image;
}

// The registered view a picture names, made once with the plan; the first
// picture of it that draws the run gives it the corrected run it is
// compared with and the run (a view that drew the plan alone first, as the
// predicted timeline does, still gets them).
StudioView* ReportPictures::viewFor(const ReportPicture& picture) {
    std::unique_ptr<StudioView>& view = views_[picture.view];
    if (!view) {
        const ViewRegistration* registration = findStudioView(picture.view);
        if (!registration || registration->needsWindow)
            throw std::logic_error("no studio view draws report pictures as " +
                                   picture.view.toStdString());
        view = makeStudioView(*registration, ViewContext{selection_.get()});
        view->showPlan(plan_);
    }
    if (picture.drawsRun && withRun_.insert(picture.view).second) {
        if (comparison_.isValid()) view->showRun(comparison_);
        view->showRun(run_);
    }
    return view.get();
}

// The views follow the shared selection, as in the studio: the param or the
// batch a picture is about is selected before it is drawn.
void ReportPictures::select(const ReportPicture& picture) {
    if (picture.param >= 0) {
        const ParamPlace& place = plan_.index->params[size_t(picture.param)];
        selection_->selectParam(picture.param, place.group, place.batch);
        return;
    }
    SelectionState state;
    state.group = picture.group;
    state.batch = picture.batch;
    selection_->set(state);
}

}  // namespace hsdp
