#pragma once

#include "report/report_document.h"
#include "report/report_input.h"

namespace hsdp {

// How many rows a body table shows before it is summarised: the worst rows
// first, the whole table in an appendix section.
inline constexpr int kReportBodyRows = 16;

// The report of `input` as a document: header, summary, diagnostics, groups,
// pictures, TP lowering, the run's verification and traffic, appendix.
ReportDocument buildReport(const ReportInput& input);

}  // namespace hsdp
