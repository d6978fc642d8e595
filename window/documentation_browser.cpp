// SPDX-License-Identifier: Apache-2.0
#include "window/documentation_browser.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace hsdp {

QString documentationIndex(const QString& programDir) {
    const QDir bin(programDir);
    const QFileInfo installed(
        bin.filePath(QStringLiteral("../share/doc/hsdp-studio/docs/README.md")));
    if (installed.isFile()) return installed.canonicalFilePath();
    // build/bin, build-asan/bin, ...: the source tree a few folders up.
    QDir dir(programDir);
    for (int up = 0; up < 5; ++up) {
        const QFileInfo page(dir.filePath(QStringLiteral("docs/README.md")));
        if (page.isFile() && QFileInfo::exists(dir.filePath(QStringLiteral("CMakeLists.txt"))))
            return page.canonicalFilePath();
        if (!dir.cdUp()) break;
    }
    return {};
}

DocumentationBrowser::DocumentationBrowser(const QString& index, QWidget* parent)
    : QDialog(parent), browser_(new QTextBrowser(this)) {
    setWindowTitle(tr("HSDP Studio documentation"));
    browser_->setObjectName(QStringLiteral("documentation"));
    browser_->setOpenExternalLinks(true);
    // A .md page is read as Markdown; its links to the other pages too.
    browser_->setSource(QUrl::fromLocalFile(index), QTextDocument::MarkdownResource);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* back = buttons->addButton(tr("&Back"), QDialogButtonBox::ActionRole);
    back->setEnabled(false);
    connect(browser_, &QTextBrowser::backwardAvailable, back, &QPushButton::setEnabled);
    connect(back, &QPushButton::clicked, browser_, &QTextBrowser::backward);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(browser_, 1);
    layout->addWidget(buttons);
    resize(fontMetrics().averageCharWidth() * 110, fontMetrics().height() * 40);
}

}  // namespace hsdp
