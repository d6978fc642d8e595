#pragma once

#include <QFrame>

class QLabel;

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
    QString message() const;

signals:
    void reloadRequested();

private:
    QLabel* text_;
};

}  // namespace hsdp
