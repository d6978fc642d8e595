// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QPageSize>
#include <QString>
#include <optional>

#include "report/report_input.h"

namespace hsdp {

enum class ReportFormat { Html, Pdf };

// By the file's suffix (.html, .htm, .pdf; any case); nullopt for another.
std::optional<ReportFormat> reportFormatFor(const QString& path);

struct ReportFileResult {
    QString error;          // "" when written
    bool findings = false;  // error diagnostics or a failed verification
    double seconds = 0;     // building and rendering
};

// Builds the report of `input` and writes it to `path` atomically
// (QSaveFile: readers never see half a report; a failed write leaves the old
// file). The format follows the suffix. Needs a QApplication (the views draw
// the pictures); works offscreen.
ReportFileResult writeReportFile(const ReportInput& input, const QString& path,
                                 QPageSize::PageSizeId page = QPageSize::A4);

}  // namespace hsdp
