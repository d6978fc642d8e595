// SPDX-License-Identifier: Apache-2.0
#include "window/stale_banner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace hsdp {

StaleBanner::StaleBanner(QWidget* parent)
    : QFrame(parent), text_(new QLabel(this)), reload_(new QToolButton(this)) {
    setObjectName(QStringLiteral("staleBanner"));
    setStyleSheet(
        QStringLiteral("#staleBanner { background: #fbe3e4; border: 1px solid #e0a0a4;"
                       " border-radius: 4px; } #staleBanner QLabel { color: #6d0f16; }"));
    text_->setWordWrap(true);
    // The banner takes its room from the central view, never from the docks:
    // a wrapped label's minimum width is its longest word, and an engine's
    // message (a path, a tensor's shape) widened the central area by that
    // much, squeezing the side docks, which kept the squeezed size after the
    // banner went. Ignored: the label is as wide as the banner's row, a word
    // wider than that is cut (the tooltip and the Verification view have the
    // whole message).
    text_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    reload_->setText(tr("Reload"));
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("✕"));
    close->setAutoRaise(true);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 6, 6);
    layout->addWidget(text_, 1);
    layout->addWidget(reload_);
    layout->addWidget(close);
    connect(reload_, &QToolButton::clicked, this, &StaleBanner::reloadRequested);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    hide();
}

void StaleBanner::showError(const QString& message, bool keepsStalePlan, bool fromEdit) {
    QString what = fromEdit ? tr("This edit makes the scenario invalid; showing the last valid "
                                 "plan (stale). The field is marked.")
                   : keepsStalePlan
                       ? tr("The scenario no longer reads; showing the last good plan (stale).")
                       : tr("The scenario cannot be read.");
    text_->setText(
        QStringLiteral("<b>%1</b><br><code>%2</code>").arg(what, message.toHtmlEscaped()));
    text_->setProperty("plainMessage", message);
    text_->setToolTip(message);
    reload_->show();
    showsRunError_ = false;
    showsTextError_ = false;
    show();
}

void StaleBanner::showNotice(const QString& text) {
    text_->setText(text.toHtmlEscaped());
    text_->setProperty("plainMessage", text);
    text_->setToolTip(QString());
    reload_->show();
    showsRunError_ = false;
    showsTextError_ = false;
    show();
}

void StaleBanner::showRunError(const QString& headline, const QString& message) {
    text_->setText(QStringLiteral("<b>%1</b><br><code>%2</code>")
                       .arg(headline.toHtmlEscaped(), message.toHtmlEscaped()));
    text_->setProperty("plainMessage", message);
    text_->setToolTip(message);
    reload_->hide();
    showsRunError_ = true;
    showsTextError_ = false;
    show();
}

void StaleBanner::showTextError(const QString& message) {
    text_->setText(QStringLiteral("<b>%1</b><br><code>%2</code>")
                       .arg(tr("This text is not a value: the scenario keeps the field's value "
                               "from before the edit, and the plan on screen is the last valid "
                               "one. The field is marked."),
                            message.toHtmlEscaped()));
    text_->setProperty("plainMessage", message);
    text_->setToolTip(message);
    reload_->hide();  // the file has nothing to do with it
    showsRunError_ = false;
    showsTextError_ = true;
    show();
}

QString StaleBanner::message() const {
    return text_->property("plainMessage").toString();
}

}  // namespace hsdp
