// SPDX-License-Identifier: Apache-2.0
#pragma once

// Shared by the files that build the sections of a report (not public).

#include <QString>
#include <vector>

#include "report/report_document.h"
#include "report/report_input.h"
#include "types/mesh.h"
#include "types/scenario.h"

namespace hsdp::report {

// Collects sections: the body in order, the appendix apart, joined at the end.
class SectionList {
public:
    ReportSection& add(const QString& anchor, const QString& title, int level = 1);
    // `table` with its rows already ordered worst first: all of it when it
    // is short, else its first `limit` rows with a note, and the whole table
    // as appendix section `anchor`.
    ReportTable limited(ReportTable table, const QString& anchor, const QString& title, int limit);
    std::vector<ReportSection> take();

private:
    std::vector<ReportSection> body_;
    std::vector<ReportSection> appendix_;
};

QString number(qint64 value);           // 1,234
QString bytesText(double bytes);        // "2.1 GiB"
QString ratio(double value);            // 1.23
QString coordText(const Coord& coord);  // (0, 1)
QString listText(const std::vector<int>& values, int limit = 0);
QString paramLabel(const Scenario& scenario, int param);  // #3 layers.0.wq

void addDiagnosticSections(const ReportInput& input,
                           SectionList& list);                       // report_plan_sections.cpp
void addTpSections(const ReportInput& input, SectionList& list);     // report_plan_sections.cpp
void addGroupSections(const ReportInput& input, SectionList& list);  // report_group_sections.cpp
void addParamSection(const ReportInput& input, SectionList& list);   // report_group_sections.cpp
void addPictureSections(const ReportInput& input,
                        SectionList& list);                         // report_picture_sections.cpp
void addRunSections(const ReportInput& input, SectionList& list);   // report_run_sections.cpp
void addCostSections(const ReportInput& input, SectionList& list);  // report_cost_sections.cpp
void addJobSections(const ReportInput& input, SectionList& list);   // report_job_sections.cpp

}  // namespace hsdp::report
