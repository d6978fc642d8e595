// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QPageSize>
#include <QString>

#include "report/report_document.h"

class QIODevice;

namespace hsdp {

class ReportPictures;

// The report as a PDF on `page` (A4, Letter): real text (searchable), the
// pictures replayed as vector drawing commands, a table of contents with
// page numbers, every page numbered, table rows never split across pages
// (a table that goes on repeats its header). Returns "" or the error.
QString reportToPdf(const ReportDocument& document, ReportPictures& pictures, QIODevice* device,
                    QPageSize::PageSizeId page = QPageSize::A4);

}  // namespace hsdp
