// SPDX-License-Identifier: Apache-2.0
// hsdp-render-icon SVG OUT_DIR SIZE...: renders the studio's icon at each
// SIZE into OUT_DIR/<SIZE>x<SIZE>/apps/<name>.png, the hicolor theme's
// layout. The build renders them from resources/hsdp-studio.svg, the one
// drawing, so the PNGs cannot drift from it; Qt's SVG plugin draws them, as
// it draws the window's icon. A build tool: not installed.
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <QImageReader>
#include <cstdio>

namespace {

bool render(const QString& svg, int size, const QString& path) {
    QImageReader reader(svg);
    reader.setScaledSize(QSize(size, size));
    QImage image = reader.read();
    if (image.isNull()) {
        std::fprintf(stderr, "hsdp-render-icon: cannot draw %s at %d px: %s\n", qPrintable(svg),
                     size, qPrintable(reader.errorString()));
        return false;
    }
    image = image.convertToFormat(QImage::Format_ARGB32);
    if (!QDir().mkpath(QFileInfo(path).path()) || !image.save(path, "PNG")) {
        std::fprintf(stderr, "hsdp-render-icon: cannot write %s\n", qPrintable(path));
        return false;
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    const QStringList args = app.arguments().mid(1);
    if (args.size() < 3) {
        std::fprintf(stderr, "usage: hsdp-render-icon SVG OUT_DIR SIZE...\n");
        return 2;
    }
    const QString svg = args[0];
    const QString name = QFileInfo(svg).completeBaseName();
    for (const QString& text : args.mid(2)) {
        bool ok = false;
        const int size = text.toInt(&ok);
        if (!ok || size <= 0) {
            std::fprintf(stderr, "hsdp-render-icon: '%s' is not a size in pixels\n",
                         qPrintable(text));
            return 2;
        }
        const QString path =
            QStringLiteral("%1/%2x%2/apps/%3.png").arg(args[1]).arg(size).arg(name);
        if (!render(svg, size, path)) return 1;
    }
    return 0;
}
