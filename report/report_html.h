// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>

#include "report/report_document.h"

namespace hsdp {

class ReportPictures;

// The report as one self-contained HTML5 file: styles inline, pictures as
// PNG data URIs, no script and no external reference; a table of contents
// of anchor-linked headings; well-formed XML too (void elements closed), so
// any XML reader checks it; readable on a phone (tables scroll sideways,
// pictures shrink) and printable (rows never split across pages).
QByteArray reportToHtml(const ReportDocument& document, ReportPictures& pictures);

}  // namespace hsdp
