// SPDX-License-Identifier: Apache-2.0
#include "autosave/restore_dialog.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTextDocumentFragment>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace hsdp {

namespace {

// "1 value", "3 values".
QString counted(qint64 count, const char* noun) {
    return QStringLiteral("%1 %2%3").arg(count).arg(QLatin1String(noun),
                                                    count == 1 ? QString() : QStringLiteral("s"));
}

QString ago(const QDateTime& when) {
    const qint64 seconds = std::max<qint64>(when.secsTo(QDateTime::currentDateTimeUtc()), 0);
    if (seconds < 60) return QObject::tr("%1 ago").arg(counted(seconds, "second"));
    if (seconds < 3600) return QObject::tr("%1 ago").arg(counted(seconds / 60, "minute"));
    if (seconds < 86400) return QObject::tr("%1 ago").arg(counted(seconds / 3600, "hour"));
    return QObject::tr("%1 ago").arg(counted(seconds / 86400, "day"));
}

QString localTime(const QDateTime& when) {
    return when.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString title(const RestoreOffer& offer) {
    if (offer.disk == DiskState::Untitled) {
        const std::string name = offer.copy.document.value("name", std::string());
        return name.empty() ? QObject::tr("Unsaved edits of an untitled scenario")
                            : QObject::tr("Unsaved edits of the untitled scenario '%1'")
                                  .arg(QString::fromStdString(name));
    }
    return QObject::tr("Unsaved edits of %1").arg(QFileInfo(offer.copy.file).fileName());
}

QString diskText(const RestoreOffer& offer) {
    switch (offer.disk) {
        case DiskState::Unchanged:
            return QObject::tr("unchanged since the edits began (last written %1)")
                .arg(localTime(offer.diskModified));
        case DiskState::Changed:
            return QObject::tr(
                       "<b>changed on disk since the edits began</b> (last written %1, %2): "
                       "the values below are compared with the file as it is now, and "
                       "restoring replaces it once you save")
                .arg(localTime(offer.diskModified), ago(offer.diskModified));
        case DiskState::Missing:
            return QObject::tr(
                "<b>no longer on disk</b>: compared with the file as the edits "
                "found it; Save writes it there again");
        case DiskState::Unreadable:
            return QObject::tr(
                       "<b>does not read</b> (%1): compared with the file as the edits "
                       "found it")
                .arg(offer.diskProblem.toHtmlEscaped());
        case DiskState::Untitled:
            break;
    }
    return QObject::tr(
        "never saved (New from Model Config…): compared with the scenario as "
        "generated; Save As gives it a file");
}

QLabel* wrapped(const QString& text, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    label->setTextFormat(Qt::RichText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

}  // namespace

RestoreDialog::RestoreDialog(const RestoreOffer& offer, int position, int count, QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(count > 1 ? tr("Restore unsaved edits (%1 of %2)").arg(position).arg(count)
                             : tr("Restore unsaved edits"));
    setObjectName(QStringLiteral("restoreDialog"));
    auto* layout = new QVBoxLayout(this);
    setLayout(layout);
    addDetails(offer, position, count);
    addChanges(offer);
    addButtons(offer.disk == DiskState::Untitled);
    resize(820, 520);
}

void RestoreDialog::addDetails(const RestoreOffer& offer, int position, int count) {
    auto* layout = static_cast<QVBoxLayout*>(this->layout());
    auto* heading = wrapped(QStringLiteral("<h3>%1</h3>").arg(title(offer).toHtmlEscaped()), this);
    labels_ << heading;
    layout->addWidget(heading);
    auto* intro = wrapped(
        tr("A studio that is no longer running (it crashed or was killed) set these edits aside "
           "and never saved them."),
        this);
    labels_ << intro;
    layout->addWidget(intro);
    auto* form = new QFormLayout;
    auto row = [&](const QString& name, const QString& value) {
        QLabel* label = wrapped(value, this);
        labels_ << label;
        form->addRow(name, label);
    };
    if (offer.disk != DiskState::Untitled) row(tr("File:"), offer.copy.file.toHtmlEscaped());
    row(tr("Set aside:"), tr("%1 (%2) by studio process %3")
                              .arg(localTime(offer.copy.savedAt), ago(offer.copy.savedAt))
                              .arg(offer.copy.pid));
    row(offer.disk == DiskState::Untitled ? tr("Scenario:") : tr("On disk:"), diskText(offer));
    row(tr("Copy:"), offer.copyPath.toHtmlEscaped());
    layout->addLayout(form);
    if (count > 1 && position < count) {
        const int rest = count - position;
        auto* more = wrapped(
            (rest == 1 ? tr("1 more copy follows") : tr("%1 more copies follow").arg(rest)) +
                tr("; after a restore they are kept for later."),
            this);
        labels_ << more;
        layout->addWidget(more);
    }
}

void RestoreDialog::addChanges(const RestoreOffer& offer) {
    auto* layout = static_cast<QVBoxLayout*>(this->layout());
    const bool untitled = offer.disk == DiskState::Untitled;
    const bool againstBase =
        untitled || offer.disk == DiskState::Missing || offer.disk == DiskState::Unreadable;
    const int n = int(offer.changes.size());
    QString summary =
        n == 0        ? (untitled ? tr("No edits since it was generated: restoring gives back the "
                                              "generated scenario, unsaved.")
                                  : tr("Nothing differs from the file on disk: it already holds these "
                                              "edits."))
        : againstBase ? tr("What restoring gives back: %1 edited").arg(counted(n, "value"))
                      : tr("What restoring changes: %1 from the file on disk")
                            .arg(counted(n, "value") + (n == 1 ? tr(" differs") : tr(" differ")));
    auto* heading = wrapped(QStringLiteral("<b>%1</b>").arg(summary.toHtmlEscaped()), this);
    labels_ << heading;
    layout->addWidget(heading);
    changes_ = new QTreeWidget(this);
    changes_->setRootIsDecorated(false);
    changes_->setHeaderLabels(
        {tr("Field (JSON pointer)"),
         againstBase ? (untitled ? tr("Generated") : tr("Before the edits")) : tr("On disk"),
         tr("Restored")});
    for (const JsonChange& change : offer.changes) {
        auto* item = new QTreeWidgetItem(
            changes_, {change.pointer.isEmpty() ? tr("(the whole document)") : change.pointer,
                       jsonChangeText(change.before), jsonChangeText(change.after)});
        item->setToolTip(1, jsonChangeText(change.before, 4000));
        item->setToolTip(2, jsonChangeText(change.after, 4000));
    }
    changes_->header()->setSectionResizeMode(QHeaderView::Interactive);
    for (int column = 0; column < 3; ++column) changes_->resizeColumnToContents(column);
    changes_->setVisible(n > 0);
    layout->addWidget(changes_, 1);
    auto* after = wrapped(
        untitled ? tr("Restore opens it untitled and unsaved: Save As gives it a file.")
                 : tr("Restore opens the edited scenario unsaved: save it yourself (Ctrl+S); "
                      "Undo goes back to the file on disk."),
        this);
    labels_ << after;
    layout->addWidget(after);
}

void RestoreDialog::addButtons(bool untitled) {
    auto* buttons = new QDialogButtonBox(this);
    restore_ = buttons->addButton(tr("&Restore"), QDialogButtonBox::AcceptRole);
    discard_ = buttons->addButton(tr("&Discard"), QDialogButtonBox::DestructiveRole);
    later_ = buttons->addButton(tr("&Later"), QDialogButtonBox::RejectRole);
    restore_->setDefault(true);
    restore_->setToolTip(tr("Open the edited scenario, unsaved (Enter)"));
    discard_->setToolTip(tr("Delete the copy: the edits are lost"));
    later_->setToolTip(untitled ? tr("Keep the copy: offered again at the next start (Esc)")
                                : tr("Keep the copy: offered again at the next start or when "
                                     "its file is opened (Esc)"));
    connect(restore_, &QPushButton::clicked, this, [this] {
        choice_ = RestoreChoice::Restore;
        accept();
    });
    connect(discard_, &QPushButton::clicked, this, [this] {
        choice_ = RestoreChoice::Discard;
        accept();
    });
    connect(later_, &QPushButton::clicked, this, [this] {
        choice_ = RestoreChoice::Later;
        reject();
    });
    layout()->addWidget(buttons);
}

QPushButton* RestoreDialog::button(RestoreChoice choice) const {
    switch (choice) {
        case RestoreChoice::Restore:
            return restore_;
        case RestoreChoice::Discard:
            return discard_;
        case RestoreChoice::Later:
            break;
    }
    return later_;
}

QString RestoreDialog::text() const {
    QStringList parts;
    for (QLabel* label : labels_)
        parts << QTextDocumentFragment::fromHtml(label->text()).toPlainText();
    return parts.join(QLatin1Char('\n'));
}

}  // namespace hsdp
