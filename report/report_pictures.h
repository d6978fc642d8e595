// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QImage>
#include <QPicture>
#include <map>
#include <memory>
#include <set>

#include "derived/plan/plan_result.h"
#include "derived/run/run_data.h"
#include "report/report_document.h"

namespace hsdp {

class PlanSelection;
class StudioView;

// Paints a report's pictures with the studio's registered views (never on
// screen), as --screenshot renders them: each picture is recorded as a
// QPicture of drawing commands, so a PDF replays it as vectors (text stays
// text) and HTML rasterises it. Needs a QApplication; each view is made on
// first use, with the plan (and the run, for a picture that draws it), and
// reused.
class ReportPictures {
public:
    // `comparison`: the corrected run a reference `run` is drawn against.
    ReportPictures(PlanResult plan, RunData run, RunData comparison = {});
    ~ReportPictures();

    // The size the picture is drawn at when about `size` is asked for (its
    // ReportPicture::size, or another of about the same shape): as wide at
    // most, and as tall as what it draws needs (StudioView::fittedPictureSize).
    QSize fittedSize(const ReportPicture& picture, const QSize& size);
    // The picture laid out at `size` (a fittedSize()), as drawing commands from (0, 0).
    QPicture record(const ReportPicture& picture, const QSize& size);
    // The same drawn into an image of size x scale pixels on white.
    QImage image(const ReportPicture& picture, const QSize& size, qreal scale = 1.0);

private:
    StudioView* viewFor(const ReportPicture& picture);
    void select(const ReportPicture& picture);

    PlanResult plan_;
    RunData run_;
    RunData comparison_;
    std::unique_ptr<PlanSelection> selection_;
    std::map<QString, std::unique_ptr<StudioView>> views_;
    std::set<QString> withRun_;  // the views given the run (and its comparison)
};

}  // namespace hsdp
