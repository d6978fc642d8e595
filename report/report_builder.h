// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "report/report_document.h"
#include "report/report_input.h"

namespace hsdp {

// How many rows a body table shows before it is summarised: the worst rows
// first, the whole table in an appendix section.
inline constexpr int kReportBodyRows = 16;

// How many rows an appendix table keeps: every parameter of a 10,000-param
// plan, but not every load of 4,000 batches x 64 coordinates (256,000 rows,
// thousands of pages); past it the worst rows stay, and the note points at
// `plan --json`, which has every one.
inline constexpr int kReportAppendixRows = 10000;

// The report of `input` as a document: header, summary, diagnostics, groups,
// pictures, TP lowering, the run's verification and traffic, appendix.
ReportDocument buildReport(const ReportInput& input);

}  // namespace hsdp
