// SPDX-License-Identifier: Apache-2.0
#include "report/report_html.h"

#include <QBuffer>
#include <QImage>
#include <QRegularExpression>
#include <QTextStream>

#include "report/report_pictures.h"

namespace hsdp {

namespace {

// Print and screen alike; system fonts only (nothing to fetch).
const char* const kStyle = R"(
:root{color-scheme:light}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#1d2329;
background:#fff;margin:0 auto;max-width:1180px;padding:16px 20px 48px}
h1{font-size:1.7em;margin:.2em 0 .1em}h2{font-size:1.35em;margin:1.6em 0 .4em;border-bottom:2px solid #d8dee4;padding-bottom:.15em}
h3{font-size:1.1em;margin:1.3em 0 .4em}
h2 a.anchor,h3 a.anchor{color:#8c959f;text-decoration:none;margin-right:.35em;font-weight:normal}
.scenario{font-size:1.15em;font-weight:600;margin:.1em 0}.description{color:#424a53;max-width:60em}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.15em 1em;margin:.6em 0}
dl.facts dt{font-weight:600;color:#424a53}dl.facts dd{margin:0;overflow-wrap:anywhere}
pre{background:#f6f8fa;border:1px solid #d8dee4;border-radius:4px;padding:.5em .7em;white-space:pre-wrap;overflow-wrap:anywhere;font-size:.9em}
.scroll{overflow-x:auto;margin:.4em 0 .2em}
table{border-collapse:collapse;font-size:.86em;min-width:40%}
th,td{border:1px solid #d0d7de;padding:.22em .5em;text-align:left;vertical-align:top;overflow-wrap:break-word}
th{background:#eef1f4;position:sticky;top:0}tbody tr:nth-child(even){background:#f9fafb}
td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
p.note{font-size:.85em;color:#57606a;margin:.1em 0 .8em}
figure{margin:.8em 0 1.2em}figure img{max-width:100%;height:auto;border:1px solid #d8dee4}
figcaption{font-size:.88em;color:#424a53;margin-top:.25em}
nav.toc{background:#f6f8fa;border:1px solid #d8dee4;border-radius:4px;padding:.4em 1em;margin:1em 0}nav.toc h2{margin-top:.3em}
nav.toc ol{margin:.2em 0;padding-left:1.4em}nav.toc a{text-decoration:none}
.verdict-bad{color:#b42318;font-weight:600}
@media (max-width:600px){body{padding:10px;font-size:14px}dl.facts{grid-template-columns:1fr}dl.facts dt{margin-top:.4em}}
@media print{body{max-width:none;padding:0;font-size:11pt}.scroll{overflow:visible}th{position:static}
tr,figure,dl.facts{break-inside:avoid;page-break-inside:avoid}h2,h3{break-after:avoid;page-break-after:avoid}
thead{display:table-header-group}a{color:inherit}}
)";

QString esc(const QString& text) {
    return text.toHtmlEscaped();
}

bool numeric(const QString& cell) {
    static const QRegularExpression pattern(QStringLiteral(R"(^[-+]?[\d,]+(\.\d+)?$)"));
    return pattern.match(cell).hasMatch();
}

class HtmlWriter : private ReportBlockVisitor {
public:
    HtmlWriter(const ReportDocument& doc, ReportPictures& pictures)
        : doc_(doc), pictures_(pictures), out_(&html_) {}

    QByteArray write() {
        out_ << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>\n"
             << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
             << "<title>" << esc(doc_.title) << "</title>\n<style>" << kStyle
             << "</style></head>\n<body>\n";
        header();
        contents();
        for (const ReportSection& s : doc_.sections) section(s);
        out_ << "</body></html>\n";
        out_.flush();
        return html_.toUtf8();
    }

private:
    void header() {
        out_ << "<header><h1 id=\"top\">" << esc(doc_.title) << "</h1>\n";
        out_ << "<p class=\"scenario\">Scenario: " << esc(doc_.scenarioName) << "</p>\n";
        if (!doc_.description.isEmpty())
            out_ << "<p class=\"description\">" << esc(doc_.description) << "</p>\n";
        facts(doc_.header);
        out_ << "<p>The command that reproduces this report:</p><pre>" << esc(doc_.command)
             << "</pre></header>\n";
    }

    void contents() {
        out_ << "<nav class=\"toc\"><h2 id=\"contents\">Contents</h2><ol>";
        int level = 1;
        bool open = false;
        for (const ReportSection& s : doc_.sections) {
            if (s.level > level) out_ << "<ol>";
            if (s.level < level) out_ << "</li></ol></li>";
            if (s.level == level && open) out_ << "</li>";
            out_ << "<li><a href=\"#" << s.anchor << "\">" << esc(s.title) << "</a>";
            level = s.level;
            open = true;
        }
        if (level > 1) out_ << "</li></ol>";
        if (open) out_ << "</li>";
        out_ << "</ol></nav>\n";
    }

    void section(const ReportSection& s) {
        const char* h = s.level == 1 ? "h2" : "h3";
        out_ << "<section><" << h << " id=\"" << s.anchor << "\"><a class=\"anchor\" href=\"#"
             << s.anchor << "\">§</a>" << esc(s.title) << "</" << h << ">\n";
        for (const ReportBlock& b : s.blocks) visit(b);
        out_ << "</section>\n";
    }

    void paragraph(const QString& text) override { out_ << "<p>" << esc(text) << "</p>\n"; }

    void code(const QString& text) override { out_ << "<pre>" << esc(text) << "</pre>\n"; }

    void facts(const Facts& facts) override {
        out_ << "<dl class=\"facts\">";
        for (const auto& [label, value] : facts) {
            const bool bad = value.contains(QLatin1String("NOT VERIFIED")) ||
                             value.contains(QLatin1String("error diagnostic"));
            out_ << "<dt>" << esc(label) << "</dt><dd" << (bad ? " class=\"verdict-bad\"" : "")
                 << ">" << esc(value) << "</dd>";
        }
        out_ << "</dl>\n";
    }

    void table(const ReportTable& t) override {
        out_ << "<div class=\"scroll\"><table><thead><tr>";
        for (const QString& h : t.header) out_ << "<th>" << esc(h) << "</th>";
        out_ << "</tr></thead><tbody>\n";
        for (const QStringList& row : t.rows) {
            out_ << "<tr>";
            for (const QString& cell : row)
                out_ << (numeric(cell) ? "<td class=\"num\">" : "<td>") << esc(cell) << "</td>";
            out_ << "</tr>\n";
        }
        out_ << "</tbody></table></div>\n";
        if (!t.note.isEmpty()) {
            out_ << "<p class=\"note\">" << esc(t.note);
            if (!t.fullAnchor.isEmpty())
                out_ << " <a href=\"#" << t.fullAnchor << "\">Go to the full table.</a>";
            out_ << "</p>\n";
        }
    }

    void picture(const ReportPicture& p) override {
        const QSize size = pictures_.fittedSize(p, p.size);
        const QImage image = pictures_.image(p, size);
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        image.save(&buffer, "PNG");
        out_ << "<figure><img alt=\"" << esc(p.caption) << "\" width=\"" << size.width()
             << "\" height=\"" << size.height() << "\" src=\"data:image/png;base64,"
             << png.toBase64() << "\"/><figcaption>" << esc(p.caption)
             << "</figcaption></figure>\n";
    }

    const ReportDocument& doc_;
    ReportPictures& pictures_;
    QString html_;
    QTextStream out_;
};

}  // namespace

QByteArray reportToHtml(const ReportDocument& document, ReportPictures& pictures) {
    return HtmlWriter(document, pictures).write();
}

}  // namespace hsdp
