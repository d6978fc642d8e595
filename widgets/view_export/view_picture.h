// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QImage>
#include <QSize>
#include <QString>
#include <optional>

class QMimeData;
class QWidget;

namespace hsdp {

class StudioView;

enum class PictureFormat { Png, Svg };

// By the file name's suffix, in any case: .png or .svg; nothing for another.
std::optional<PictureFormat> pictureFormatOf(const QString& path);

// What an exported picture says it is: the SVG's <title> and <desc>.
struct PictureCaption {
    QString title;
    QString description;
};

// A view drawn once for a file or the clipboard: its pixels and, when
// asked for, the same drawing as an SVG document whose viewBox is the
// picture's size in pixels (text as text, shapes as shapes).
struct ViewPicture {
    QImage image;
    QByteArray svg;  // empty unless asked for

    // `widget` as it is on screen, at its size: its pixels and its drawing.
    static ViewPicture onScreen(QWidget& widget, bool withSvg, const PictureCaption& caption);
    // `view`'s `part` ("" its default) drawn at `size` as --screenshot draws
    // it (StudioView::picture()); the SVG is the drawing picture() grabs, or
    // the view's paintPicture() when it paints its picture itself. A view
    // that lives in a window is put back as it was (its size, shown).
    static ViewPicture drawn(StudioView& view, const QSize& size, const QString& part, bool withSvg,
                             const PictureCaption& caption);

    // Writes the image (a .png path) or the SVG (.svg) whole or not at all
    // (QSaveFile); false with `error` naming the path and the reason.
    bool save(const QString& path, QString* error) const;
    // For the clipboard: the image, and the SVG as image/svg+xml when drawn.
    QMimeData* mimeData() const;
};

}  // namespace hsdp
