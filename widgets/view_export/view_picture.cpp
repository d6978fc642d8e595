// SPDX-License-Identifier: Apache-2.0
#include "view_export/view_picture.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QMimeData>
#include <QPainter>
#include <QSaveFile>
#include <QScrollArea>
#include <QWidget>

#include "view/studio_view.h"
#include "view/vector_capture.h"
#include "view_export/svg_paint_device.h"

namespace hsdp {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ViewPicture", text);
}

// The resizable scroll area `view` fills, if any (a scrolled dock's): it
// sizes the view back to its viewport whenever the view is resized.
QScrollArea* resizingScrollArea(QWidget& view) {
    QWidget* viewport = view.parentWidget();
    auto* area = viewport ? qobject_cast<QScrollArea*>(viewport->parentWidget()) : nullptr;
    return area && area->widget() == &view && area->widgetResizable() ? area : nullptr;
}

// A window's own view drawn at another size: grabOffscreen() leaves it at
// the size drawn and hides it when it had to show it, and a scrolled dock
// would size it back before the grab. Holds the view free while it draws
// and puts it back as it was.
class HeldView {
public:
    explicit HeldView(QWidget& view)
        : view_(view),
          size_(view.size()),
          hidden_(view.isHidden()),
          offscreen_(view.testAttribute(Qt::WA_DontShowOnScreen)),
          area_(resizingScrollArea(view)) {
        if (area_) area_->setWidgetResizable(false);
    }
    ~HeldView() {
        view_.setAttribute(Qt::WA_DontShowOnScreen, offscreen_);
        if (!hidden_ && view_.isHidden()) view_.show();
        view_.resize(size_);
        if (area_) area_->setWidgetResizable(true);
    }
    HeldView(const HeldView&) = delete;
    HeldView& operator=(const HeldView&) = delete;

private:
    QWidget& view_;
    const QSize size_;
    const bool hidden_;
    const bool offscreen_;
    QScrollArea* const area_;
};

}  // namespace

std::optional<PictureFormat> pictureFormatOf(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png")) return PictureFormat::Png;
    if (suffix == QLatin1String("svg")) return PictureFormat::Svg;
    return std::nullopt;
}

ViewPicture ViewPicture::onScreen(QWidget& widget, bool withSvg, const PictureCaption& caption) {
    ViewPicture picture;
    picture.image = widget.grab().toImage();
    if (!withSvg) return picture;
    SvgPaintDevice svg(widget.size(), widget.logicalDpiY(), caption.title, caption.description);
    {
        QPainter painter(&svg);
        paintWidgetAsVectors(painter, widget);
    }
    picture.svg = svg.document();
    return picture;
}

ViewPicture ViewPicture::drawn(StudioView& view, const QSize& size, const QString& part,
                               bool withSvg, const PictureCaption& caption) {
    ViewPicture picture;
    HeldView held(*view.widget());
    if (!withSvg) {
        picture.image = view.picture(size, part);
        return picture;
    }
    SvgPaintDevice svg(size, view.widget()->logicalDpiY(), caption.title, caption.description);
    {
        VectorCapture capture(svg);
        picture.image = view.picture(size, part);
        if (!capture.painted()) view.paintPicture(svg, size, part);
    }
    picture.svg = svg.document();
    return picture;
}

bool ViewPicture::save(const QString& path, QString* error) const {
    const auto fail = [&](const QString& reason) {
        if (error) *error = tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), reason);
        return false;
    };
    const std::optional<PictureFormat> format = pictureFormatOf(path);
    if (!format) return fail(tr("the name must end in .png or .svg"));
    if (*format == PictureFormat::Svg && svg.isEmpty()) return fail(tr("no SVG was drawn"));
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return fail(file.errorString());
    const bool written =
        *format == PictureFormat::Png ? image.save(&file, "PNG") : file.write(svg) == svg.size();
    if (!written) {
        const QString reason = file.errorString();
        file.cancelWriting();
        return fail(reason.isEmpty() ? tr("the picture could not be encoded") : reason);
    }
    if (!file.commit()) return fail(file.errorString());
    return true;
}

QMimeData* ViewPicture::mimeData() const {
    auto* data = new QMimeData;
    data->setImageData(image);
    if (!svg.isEmpty()) data->setData(QStringLiteral("image/svg+xml"), svg);
    return data;
}

}  // namespace hsdp
