// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QFrame>

class QLabel;
class QToolButton;

namespace hsdp {

// A message strip above the views (KMessageWidget-like): the reader's error
// when the scenario no longer reads, saying whether the plan on screen is the
// last good one (stale) or there is none yet.
class StaleBanner : public QFrame {
    Q_OBJECT
public:
    explicit StaleBanner(QWidget* parent = nullptr);

    // `fromEdit`: the message is about an edit in the what-if panel, not the file.
    void showError(const QString& message, bool keepsStalePlan, bool fromEdit = false);
    void showNotice(const QString& text);  // information, not an error
    // A what-if field whose text is no value: `message` names the field and
    // the bad part; the plan on screen stays that of the last valid document.
    void showTextError(const QString& message);
    // A run that failed: `headline` in bold over the engine's error text
    // (rank, op, group, seq). Nothing to reload, so no Reload button.
    void showRunError(const QString& headline, const QString& message);
    QString message() const;
    bool showsRunError() const { return showsRunError_; }
    bool showsTextError() const { return showsTextError_; }

signals:
    void reloadRequested();

private:
    QLabel* text_;
    QToolButton* reload_;
    bool showsRunError_ = false;
    bool showsTextError_ = false;
};

}  // namespace hsdp
