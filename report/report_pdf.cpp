// SPDX-License-Identifier: Apache-2.0
#include "report/report_pdf.h"

#include <QBuffer>
#include <QFontMetricsF>
#include <QMap>
#include <QPainter>
#include <QPdfWriter>
#include <QPicture>
#include <algorithm>

#include "hsdp_version.h"
#include "report/report_pictures.h"

namespace hsdp {

namespace {

constexpr int kDpi = 96;  // layout units: the pixels the views are laid out in
constexpr double kFooter = 26;
constexpr double kCellPad = 4;
constexpr double kGap = 8;

// Words wrap at spaces; a word wider than its column (a long path) breaks anywhere.
QTextOption wrapping(Qt::Alignment alignment = Qt::AlignLeft | Qt::AlignTop) {
    QTextOption option(alignment);
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    return option;
}

// A command's lines `width` wide: its arguments packed greedily, a line
// breaking only between two of them ("--cluster" stays whole); an argument
// wider than a line alone (a long path) breaks anywhere.
QStringList commandLines(const QString& command, const QFontMetricsF& metrics, double width) {
    QStringList lines;
    QString line;
    for (QString argument : commandArguments(command)) {
        const QString joined = line.isEmpty() ? argument : line + QLatin1Char(' ') + argument;
        if (metrics.horizontalAdvance(joined) <= width) {
            line = joined;
            continue;
        }
        if (!line.isEmpty()) lines << line;
        while (argument.size() > 1 && metrics.horizontalAdvance(argument) > width) {
            qsizetype fits = argument.size() - 1;
            while (fits > 1 && metrics.horizontalAdvance(argument.left(fits)) > width) --fits;
            lines << argument.left(fits);
            argument = argument.mid(fits);
        }
        line = argument;
    }
    if (!line.isEmpty()) lines << line;
    return lines;
}

QFont font(double points, bool bold = false, bool mono = false) {
    QFont f(mono ? QStringLiteral("DejaVu Sans Mono") : QStringLiteral("DejaVu Sans"));
    if (mono) f.setStyleHint(QFont::Monospace);
    f.setPointSizeF(points);
    f.setBold(bold);
    // No ligatures: "fi" must stay two letters for search and copy (pdftotext
    // otherwise reads U+FB01 in "verification").
    f.setStyleStrategy(QFont::PreferNoShaping);
    return f;
}

// Lays the document out page by page with one painter on a QPdfWriter. Run
// twice: the first pass learns on which page each section starts, the second
// prints those numbers in the table of contents.
class PdfPages : private ReportBlockVisitor {
public:
    PdfPages(const ReportDocument& doc, ReportPictures& pictures, QMap<QString, QPicture>& cache)
        : doc_(doc), pictures_(pictures), cache_(cache) {}

    QMap<QString, int> render(QPdfWriter& writer, const QMap<QString, int>& sectionPages) {
        QPainter painter(&writer);
        p_ = &painter;
        writer_ = &writer;
        width_ = writer.width();
        bottom_ = writer.height() - kFooter;
        page_ = 1;
        y_ = 0;
        starts_.clear();
        title();
        contents(sectionPages);
        for (size_t i = 0; i < doc_.sections.size(); ++i)
            section(doc_.sections[i],
                    i + 1 < doc_.sections.size() ? &doc_.sections[i + 1] : nullptr);
        footer();
        painter.end();
        return starts_;
    }

private:
    void newPage() {
        footer();
        writer_->newPage();
        ++page_;
        y_ = 0;
    }

    void footer() {
        p_->save();
        p_->setFont(font(7.5));
        p_->setPen(QColor(0x57, 0x60, 0x6a));
        const QRectF area(0, bottom_ + 8, width_, kFooter - 8);
        p_->drawText(area, Qt::AlignLeft | Qt::AlignVCenter, doc_.title);
        p_->drawText(area, Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("page %1").arg(page_));
        p_->restore();
    }

    void ensure(double height) {
        if (y_ > 0 && y_ + height > bottom_) newPage();
    }

    double textHeight(const QString& text, const QFont& f, double width) {
        p_->setFont(f);
        return p_->boundingRect(QRectF(0, 0, width, 1e6), text, wrapping()).height();
    }

    void text(const QString& text, const QFont& f, const QColor& colour = QColor(0x1d, 0x23, 0x29),
              double indent = 0) {
        const double h = textHeight(text, f, width_ - indent);
        ensure(h);
        p_->setFont(f);
        p_->setPen(colour);
        p_->drawText(QRectF(indent, y_, width_ - indent, h), text, wrapping());
        y_ += h + kGap / 2;
    }

    void title() {
        text(doc_.title, font(18, true));
        text(QStringLiteral("Scenario: ") + doc_.scenarioName, font(12, true));
        if (!doc_.description.isEmpty()) text(doc_.description, font(10), QColor(0x42, 0x4a, 0x53));
        y_ += kGap / 2;
        facts(doc_.header);
        text(QStringLiteral("The command that reproduces this report:"), font(10));
        command(doc_.command);
    }

    // The command in a code block, wrapped only between its arguments.
    void command(const QString& line) {
        const QFont f = font(8.5, false, true);
        const double width = width_ - 2 * kCellPad;
        // A pixel to spare: the painter must not wrap a line again.
        const QStringList lines = commandLines(line, QFontMetricsF(f, p_->device()), width - 1);
        QTextOption manual = wrapping();
        manual.setWrapMode(QTextOption::ManualWrap);
        const QString body = lines.join(QLatin1Char('\n'));
        p_->setFont(f);
        const double h =
            p_->boundingRect(QRectF(0, 0, width, 1e6), body, manual).height() + 2 * kCellPad;
        ensure(h);
        p_->fillRect(QRectF(0, y_, width_, h), QColor(0xf6, 0xf8, 0xfa));
        p_->setPen(QColor(0xd8, 0xde, 0xe4));
        p_->drawRect(QRectF(0, y_, width_, h));
        p_->setPen(Qt::black);
        p_->drawText(QRectF(kCellPad, y_ + kCellPad, width, h), body, manual);
        y_ += h + kGap;
    }

    void contents(const QMap<QString, int>& pages) {
        heading(QStringLiteral("Contents"), 1, 80);
        p_->setFont(font(10));
        const double line = QFontMetricsF(p_->font()).height() + 2;
        for (const ReportSection& s : doc_.sections) {
            ensure(line);
            const double indent = s.level > 1 ? 18 : 0;
            p_->setFont(font(s.level > 1 ? 9 : 10, s.level == 1));
            p_->setPen(Qt::black);
            const QRectF area(indent, y_, width_ - indent, line);
            const QString page =
                pages.contains(s.anchor) ? QString::number(pages[s.anchor]) : QStringLiteral("…");
            p_->drawText(area.adjusted(0, 0, -40, 0), Qt::AlignLeft | Qt::AlignVCenter, s.title);
            p_->drawText(area, Qt::AlignRight | Qt::AlignVCenter, page);
            y_ += line;
        }
        newPage();
    }

    // What must follow a heading on its page: its leading paragraphs and the
    // first picture whole, or a few lines of a table; a section of
    // paragraphs only keeps the next section's heading and lead with it too.
    double leadHeight(const ReportSection& s, const ReportSection* next) {
        double lead = 0;
        for (const ReportBlock& b : s.blocks) {
            if (b.kind == ReportBlock::Paragraph) {
                lead += textHeight(b.text, font(10), width_) + kGap / 2;
                continue;
            }
            if (b.kind != ReportBlock::Picture) return lead + 80;
            const PictureBox box = pictureBox(b.picture);
            return lead + box.size.height() * box.scale + box.caption;
        }
        if (next && next->level > s.level) return lead + 40 + leadHeight(*next, nullptr);
        return lead;
    }

    void heading(const QString& title, int level, double lead) {
        const QFont f = font(level == 1 ? 15 : 12, true);
        // A heading never ends a page: keep room for what follows it.
        ensure(textHeight(title, f, width_) + lead + kGap * 2);
        y_ += y_ > 0 ? kGap * (level == 1 ? 2 : 1) : 0;
        text(title, f);
        if (level == 1) {
            p_->setPen(QPen(QColor(0xd8, 0xde, 0xe4), 1.5));
            p_->drawLine(QPointF(0, y_ - 2), QPointF(width_, y_ - 2));
            y_ += 2;
        }
    }

    void section(const ReportSection& s, const ReportSection* next) {
        if (s.level == 1 && s.appendix == false && s.anchor == QLatin1String("appendix")) newPage();
        heading(s.title, s.level, std::min(leadHeight(s, next), bottom_ * 0.9));
        starts_[s.anchor] = page_;
        for (const ReportBlock& b : s.blocks) visit(b);
    }

    void paragraph(const QString& body) override { text(body, font(10)); }

    void code(const QString& body) override {
        const QFont f = font(8.5, false, true);
        const double h = textHeight(body, f, width_ - 2 * kCellPad) + 2 * kCellPad;
        ensure(h);
        p_->fillRect(QRectF(0, y_, width_, h), QColor(0xf6, 0xf8, 0xfa));
        p_->setPen(QColor(0xd8, 0xde, 0xe4));
        p_->drawRect(QRectF(0, y_, width_, h));
        p_->setPen(Qt::black);
        p_->setFont(f);
        p_->drawText(QRectF(kCellPad, y_ + kCellPad, width_ - 2 * kCellPad, h), body, wrapping());
        y_ += h + kGap;
    }

    void facts(const Facts& list) override {
        const double labelWidth = std::min(200.0, width_ * 0.3);
        const QFont label = font(9.5, true), value = font(9.5);
        for (const auto& [l, v] : list) {
            const double h = std::max(textHeight(l, label, labelWidth - 8),
                                      textHeight(v, value, width_ - labelWidth));
            ensure(h);
            p_->setPen(QColor(0x42, 0x4a, 0x53));
            p_->setFont(label);
            p_->drawText(QRectF(0, y_, labelWidth - 8, h), l, wrapping());
            p_->setPen(Qt::black);
            p_->setFont(value);
            p_->drawText(QRectF(labelWidth, y_, width_ - labelWidth, h), v, wrapping());
            y_ += h + 2;
        }
        y_ += kGap;
    }

    // The widest word of `text`: less than that and a word ("Collectives",
    // a number) is broken inside.
    static double widestWord(const QString& text, const QFontMetricsF& metrics) {
        double widest = 0;
        for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts))
            widest = std::max(widest, metrics.horizontalAdvance(word));
        return widest;
    }

    // Natural widths when they fit. Else every column keeps its widest word
    // and the room left goes to the columns in proportion to what they lack
    // of their natural width; only when even the words do not fit do the
    // wide columns share what the narrow ones leave (words then break).
    std::vector<double> columnWidths(const ReportTable& t, const QFont& body, const QFont& head) {
        const size_t n = size_t(t.header.size());
        std::vector<double> natural(n, 0), words(n, 0);
        const QFontMetricsF bm(body, writer_), hm(head, writer_);
        for (size_t c = 0; c < n; ++c) {
            natural[c] = hm.horizontalAdvance(t.header[int(c)]);
            words[c] = widestWord(t.header[int(c)], hm);
        }
        for (const QStringList& row : t.rows)
            for (size_t c = 0; c < n && c < size_t(row.size()); ++c) {
                natural[c] = std::max(natural[c], bm.horizontalAdvance(row[int(c)]));
                words[c] = std::max(words[c], widestWord(row[int(c)], bm));
            }
        for (double& w : natural) w += 2 * kCellPad + 1;
        for (double& w : words) w += 2 * kCellPad + 1;
        std::vector<double> widths = natural;
        double total = 0, wordsTotal = 0;
        for (size_t c = 0; c < n; ++c) {
            total += natural[c];
            wordsTotal += words[c];
        }
        if (total <= width_) return widths;
        if (wordsTotal <= width_) {
            for (size_t c = 0; c < n; ++c)
                widths[c] = words[c] + (width_ - wordsTotal) * (natural[c] - words[c]) /
                                           std::max(1e-9, total - wordsTotal);
            return widths;
        }
        std::vector<bool> fixed(n, false);
        double left = width_;
        size_t open = n;
        for (bool changed = true; changed && open > 0;) {
            changed = false;
            const double share = left / double(open);
            for (size_t c = 0; c < n; ++c)
                if (!fixed[c] && natural[c] <= share) {
                    fixed[c] = true;
                    left -= natural[c];
                    --open;
                    changed = true;
                }
        }
        double wide = 0;
        for (size_t c = 0; c < n; ++c)
            if (!fixed[c]) wide += natural[c];
        for (size_t c = 0; c < n; ++c)
            if (!fixed[c]) widths[c] = std::max(30.0, left * natural[c] / wide);
        return widths;
    }

    double rowHeight(const QStringList& row, const std::vector<double>& widths, const QFont& f) {
        double h = 0;
        for (size_t c = 0; c < widths.size() && c < size_t(row.size()); ++c)
            h = std::max(h, textHeight(row[int(c)], f, widths[c] - 2 * kCellPad));
        return h + 2 * kCellPad;
    }

    void row(const QStringList& cells, const std::vector<double>& widths, const QFont& f, double h,
             const QColor& fill) {
        double x = 0;
        p_->setFont(f);
        for (size_t c = 0; c < widths.size(); ++c) {
            const QRectF cell(x, y_, widths[c], h);
            if (fill.isValid()) p_->fillRect(cell, fill);
            p_->setPen(QColor(0xd0, 0xd7, 0xde));
            p_->drawRect(cell);
            p_->setPen(Qt::black);
            if (c < size_t(cells.size()))
                p_->drawText(cell.adjusted(kCellPad, kCellPad, -kCellPad, -kCellPad), cells[int(c)],
                             wrapping());
            x += widths[c];
        }
        y_ += h;
    }

    void table(const ReportTable& t) override {
        const QFont body = font(7.5), head = font(7.5, true);
        const std::vector<double> widths = columnWidths(t, body, head);
        const double headHeight = rowHeight(t.header, widths, head);
        const QColor headFill(0xee, 0xf1, 0xf4);
        ensure(headHeight + (t.rows.empty() ? 0 : rowHeight(t.rows.front(), widths, body)));
        row(t.header, widths, head, headHeight, headFill);
        for (size_t i = 0; i < t.rows.size(); ++i) {
            const double h = std::min(rowHeight(t.rows[i], widths, body), bottom_ - headHeight);
            if (y_ + h > bottom_) {  // rows never split: the table goes on, header again
                newPage();
                row(t.header, widths, head, headHeight, headFill);
            }
            row(t.rows[i], widths, body, h, i % 2 ? QColor(0xf9, 0xfa, 0xfb) : QColor());
        }
        y_ += kGap / 2;
        if (!t.note.isEmpty()) text(t.note, font(8, false), QColor(0x57, 0x60, 0x6a));
        y_ += kGap / 2;
    }

    // Laid out a little larger than the column and drawn scaled, so the
    // views' text stays readable; replayed as vectors.
    struct PictureBox {
        QSize size;  // laid out at
        double scale = 1;
        double caption = 0;  // its height
    };

    PictureBox pictureBox(const ReportPicture& pic) {
        PictureBox box;
        const double layoutWidth = std::min<double>(pic.size.width(), width_ * 1.3);
        box.size = pictures_.fittedSize(
            pic, QSize(int(layoutWidth),
                       int(layoutWidth * pic.size.height() / std::max(1, pic.size.width()))));
        box.scale = width_ / layoutWidth;
        box.caption = textHeight(pic.caption, font(8.5), width_) + kGap;
        const double room = bottom_ - box.caption;
        if (box.size.height() * box.scale > room) box.scale = room / box.size.height();
        return box;
    }

    void picture(const ReportPicture& pic) override {
        const PictureBox box = pictureBox(pic);
        const QSize size = box.size;
        const double scale = box.scale;
        ensure(size.height() * scale + box.caption);
        const QString key = QStringLiteral("%1/%2/%3/%4")
                                .arg(pic.view + QLatin1Char(':') + pic.part)
                                .arg(pic.param)
                                .arg(pic.group)
                                .arg(pic.batch);
        if (!cache_.contains(key)) cache_.insert(key, pictures_.record(pic, size));
        p_->save();
        p_->translate(0, y_);
        p_->scale(scale, scale);
        p_->setClipRect(QRect(QPoint(0, 0), size));
        p_->drawPicture(0, 0, cache_[key]);
        p_->restore();
        p_->setPen(QColor(0xd8, 0xde, 0xe4));
        p_->drawRect(QRectF(0, y_, size.width() * scale, size.height() * scale));
        y_ += size.height() * scale + 3;
        text(pic.caption, font(8.5), QColor(0x42, 0x4a, 0x53));
        y_ += kGap;
    }

    const ReportDocument& doc_;
    ReportPictures& pictures_;
    QMap<QString, QPicture>& cache_;
    QPainter* p_ = nullptr;
    QPdfWriter* writer_ = nullptr;
    double width_ = 0, bottom_ = 0, y_ = 0;
    int page_ = 1;
    QMap<QString, int> starts_;
};

void setUp(QPdfWriter& writer, const ReportDocument& doc, QPageSize::PageSizeId page) {
    writer.setResolution(kDpi);
    writer.setPageSize(QPageSize(page));
    writer.setPageMargins(QMarginsF(14, 14, 14, 12), QPageLayout::Millimeter);
    writer.setTitle(doc.title);
    writer.setCreator(QStringLiteral("HSDP Studio %1").arg(QString::fromUtf8(hsdp::version())));
}

}  // namespace

QString reportToPdf(const ReportDocument& document, ReportPictures& pictures, QIODevice* device,
                    QPageSize::PageSizeId page) {
    QMap<QString, QPicture> cache;
    PdfPages pages(document, pictures, cache);
    QBuffer scratch;
    scratch.open(QIODevice::WriteOnly);
    QMap<QString, int> starts;
    {
        QPdfWriter first(&scratch);
        setUp(first, document, page);
        starts = pages.render(first, {});
    }
    QPdfWriter writer(device);
    setUp(writer, document, page);
    pages.render(writer, starts);
    return QString();
}

}  // namespace hsdp
