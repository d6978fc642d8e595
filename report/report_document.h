// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QSize>
#include <QString>
#include <QStringList>
#include <utility>
#include <vector>

namespace hsdp {

// An exported report as plain data: what it says, in which order, with
// which tables and pictures. Built from a plan (and a run) by buildReport(),
// written by the HTML and PDF writers; nothing here renders, so tests read
// the content without a display.

// A picture drawn by one of the studio's registered views (its id), as the
// view draws `part` of itself ("" its default) for the plan, the selection
// of `param` or else of batch (group, batch), and the run if `drawsRun`.
struct ReportPicture {
    QString view;
    QString part;
    bool drawsRun = false;
    int param = -1;  // position in Plan::params
    int group = -1;  // position in Plan::groups
    int batch = -1;
    QString caption;
    QSize size;  // the size the view is laid out at: aspect ratio and text scale
};

using Facts = std::vector<std::pair<QString, QString>>;  // label, value

struct ReportTable {
    QStringList header;
    std::vector<QStringList> rows;
    // Said under the table: e.g. that it shows the worst rows of many and
    // where the whole table is (`fullAnchor`, an appendix section).
    QString note;
    QString fullAnchor;
    QString fullTitle;
};

struct ReportBlock {
    enum Kind { Paragraph, FactList, Table, Picture, Code };
    Kind kind = Paragraph;
    QString text;  // Paragraph, Code
    Facts facts;
    ReportTable table;
    ReportPicture picture;
};

// What a writer does with each kind of block; visit() dispatches over the
// kinds, the one place a new kind is added (every writer then fails to
// compile until it writes it).
class ReportBlockVisitor {
public:
    virtual ~ReportBlockVisitor() = default;
    void visit(const ReportBlock& block);

protected:
    virtual void paragraph(const QString& text) = 0;
    virtual void code(const QString& text) = 0;
    virtual void facts(const Facts& facts) = 0;
    virtual void table(const ReportTable& table) = 0;
    virtual void picture(const ReportPicture& picture) = 0;
};

struct ReportSection {
    QString anchor;  // unique, [a-z0-9-]
    QString title;
    int level = 1;  // 1: a section of the table of contents, 2: under one
    bool appendix = false;
    std::vector<ReportBlock> blocks;

    void paragraph(const QString& text);
    void code(const QString& text);
    void factList(Facts facts);
    void table(ReportTable table);
    void picture(ReportPicture picture);
};

struct ReportDocument {
    QString title;
    QString scenarioName;
    QString description;
    Facts header;  // date, tool version, the command that reproduces the report
    QString command;
    std::vector<ReportSection> sections;  // the body, then the appendix
    // Exit status 1: the plan has error diagnostics or the run did not verify.
    bool findings = false;

    const ReportSection* find(const QString& anchor) const;
};

// A command line's arguments as a shell splits it: at spaces outside single
// quotes and backslash escapes, each argument kept as written (quotes
// included). A shown command wraps only between them.
QStringList commandArguments(const QString& command);

}  // namespace hsdp
