#pragma once

#include <QImage>
#include <QPicture>
#include <memory>

#include "models/plan_result.h"
#include "models/run_data.h"
#include "report/report_document.h"

namespace hsdp {

class BufferLayoutView;
class MeshView;
class ModeComparisonView;
class OwnerBalanceView;
class PlanSelection;
class TensorLayoutView;

// Paints a report's pictures with the studio's own views (never on screen),
// as screenshots.cpp renders them: each picture is recorded as a QPicture of
// drawing commands, so a PDF replays it as vectors (text stays text) and HTML
// rasterises it. QCustomPlot charts draw through toPainter() into the same
// recording. Needs a QApplication; views are made on first use and reused.
class ReportPictures {
public:
    // `comparison`: the corrected run a reference `run` is drawn against.
    ReportPictures(PlanResult plan, RunData run, RunData comparison = {});
    ~ReportPictures();

    // The picture laid out at `size` (its ReportPicture::size, or another
    // size of about the same shape), as drawing commands from (0, 0).
    QPicture record(const ReportPicture& picture, const QSize& size);
    // The same drawn into an image of size x scale pixels on white.
    QImage image(const ReportPicture& picture, const QSize& size, qreal scale = 1.0);

private:
    void paint(const ReportPicture& picture, QPicture& target, const QSize& size);
    void paintChart(const ReportPicture& picture, QPicture& target, const QSize& size);
    void makeView(PictureKind kind);
    void select(const ReportPicture& picture);

    PlanResult plan_;
    RunData run_;
    RunData comparison_;
    std::unique_ptr<PlanSelection> selection_;
    std::unique_ptr<MeshView> mesh_;
    std::unique_ptr<OwnerBalanceView> balance_;
    std::unique_ptr<BufferLayoutView> buffers_;
    std::unique_ptr<TensorLayoutView> tensors_;
    std::unique_ptr<ModeComparisonView> wrongRows_;
};

}  // namespace hsdp
