// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>
#include <QString>

class QTextBrowser;

namespace hsdp {

// The documentation's first page, docs/README.md: the installed package's
// (<prefix>/share/doc/hsdp-studio/docs, beside the program's bin folder),
// else the source tree's that the program was built in (a folder above
// `programDir` with docs/README.md and CMakeLists.txt); "" when neither is
// there.
QString documentationIndex(const QString& programDir);

// Help ▸ Documentation: the pages rendered from their Markdown, links
// between them followed in place, links out opened in the desktop's
// browser. Not modal: it stays open beside the window.
class DocumentationBrowser : public QDialog {
    Q_OBJECT
public:
    explicit DocumentationBrowser(const QString& index, QWidget* parent = nullptr);

    QTextBrowser* browser() const { return browser_; }

private:
    QTextBrowser* browser_;
};

}  // namespace hsdp
