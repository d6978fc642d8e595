#pragma once

#include <QImage>
#include <QPicture>
#include <memory>

#include "report/report_document.h"
#include "shared/plan_result.h"
#include "shared/run_data.h"

namespace hsdp {

class BufferLayoutWidget;
class MeshCanvas;
class WrongRowsWidget;
class OwnerBalanceWidget;
class PlanSelection;
class TensorLayoutWidget;

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
    std::unique_ptr<MeshCanvas> mesh_;
    std::unique_ptr<OwnerBalanceWidget> balance_;
    std::unique_ptr<BufferLayoutWidget> buffers_;
    std::unique_ptr<TensorLayoutWidget> tensors_;
    std::unique_ptr<WrongRowsWidget> wrongRows_;
};

}  // namespace hsdp
