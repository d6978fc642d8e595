// SPDX-License-Identifier: Apache-2.0
#include "report/report_file.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QSaveFile>

#include "report/report_builder.h"
#include "report/report_html.h"
#include "report/report_pdf.h"
#include "report/report_pictures.h"

namespace hsdp {

std::optional<ReportFormat> reportFormatFor(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("html") || suffix == QLatin1String("htm"))
        return ReportFormat::Html;
    if (suffix == QLatin1String("pdf")) return ReportFormat::Pdf;
    return std::nullopt;
}

ReportFileResult writeReportFile(const ReportInput& input, const QString& path,
                                 QPageSize::PageSizeId page) {
    QElapsedTimer timer;
    timer.start();
    ReportFileResult result;
    const std::optional<ReportFormat> format = reportFormatFor(path);
    if (!format) {
        result.error = QStringLiteral("'%1': the name must end in .html or .pdf").arg(path);
        return result;
    }
    const ReportDocument document = buildReport(input);
    result.findings = document.findings;
    ReportPictures pictures(input.plan, input.run, input.comparison);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        result.error = QStringLiteral("cannot write '%1': %2").arg(path, file.errorString());
        return result;
    }
    if (*format == ReportFormat::Html) {
        file.write(reportToHtml(document, pictures));
    } else if (QString error = reportToPdf(document, pictures, &file, page); !error.isEmpty()) {
        file.cancelWriting();
        result.error = QStringLiteral("cannot write '%1': %2").arg(path, error);
        return result;
    }
    if (!file.commit())
        result.error = QStringLiteral("cannot write '%1': %2").arg(path, file.errorString());
    result.seconds = double(timer.elapsed()) / 1000.0;
    return result;
}

}  // namespace hsdp
