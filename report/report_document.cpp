// SPDX-License-Identifier: Apache-2.0
#include "report/report_document.h"

namespace hsdp {

void ReportBlockVisitor::visit(const ReportBlock& block) {
    switch (block.kind) {
        case ReportBlock::Paragraph:
            paragraph(block.text);
            break;
        case ReportBlock::Code:
            code(block.text);
            break;
        case ReportBlock::FactList:
            facts(block.facts);
            break;
        case ReportBlock::Table:
            table(block.table);
            break;
        case ReportBlock::Picture:
            picture(block.picture);
            break;
    }
}

void ReportSection::paragraph(const QString& text) {
    ReportBlock block;
    block.kind = ReportBlock::Paragraph;
    block.text = text;
    blocks.push_back(std::move(block));
}

void ReportSection::code(const QString& text) {
    ReportBlock block;
    block.kind = ReportBlock::Code;
    block.text = text;
    blocks.push_back(std::move(block));
}

void ReportSection::factList(Facts facts) {
    ReportBlock block;
    block.kind = ReportBlock::FactList;
    block.facts = std::move(facts);
    blocks.push_back(std::move(block));
}

void ReportSection::table(ReportTable table) {
    ReportBlock block;
    block.kind = ReportBlock::Table;
    block.table = std::move(table);
    blocks.push_back(std::move(block));
}

void ReportSection::picture(ReportPicture picture) {
    ReportBlock block;
    block.kind = ReportBlock::Picture;
    block.picture = std::move(picture);
    blocks.push_back(std::move(block));
}

const ReportSection* ReportDocument::find(const QString& anchor) const {
    for (const ReportSection& s : sections)
        if (s.anchor == anchor) return &s;
    return nullptr;
}

QStringList commandArguments(const QString& command) {
    QStringList arguments;
    QString argument;
    bool quoted = false;
    for (qsizetype i = 0; i < command.size(); ++i) {
        const QChar c = command[i];
        if (c == QLatin1Char(' ') && !quoted) {
            if (!argument.isEmpty()) arguments << argument;
            argument.clear();
            continue;
        }
        argument += c;
        if (c == QLatin1Char('\''))
            quoted = !quoted;
        else if (c == QLatin1Char('\\') && !quoted && i + 1 < command.size())
            argument += command[++i];
    }
    if (!argument.isEmpty()) arguments << argument;
    return arguments;
}

}  // namespace hsdp
