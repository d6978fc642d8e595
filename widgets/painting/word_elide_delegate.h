// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QFontMetrics>
#include <QString>
#include <QStyledItemDelegate>

namespace hsdp {

// `text` shortened to `width` pixels only between words (a word ends after a
// space, comma or dot): Qt::ElideRight keeps whole words from the start,
// Qt::ElideLeft from the end, Qt::ElideMiddle from both ends keeping the last
// word and every number it can ("model.layers.37.…q_proj.weight",
// "…37.…weight"), with "…" for what is left out. Qt's
// own eliding cuts anywhere ("R, _St…ard(0)"), which reads as another value. Text that fits is
// returned as it is; if not even one word fits, "…".
QString elideAtWords(const QString& text, const QFontMetrics& metrics, int width,
                     Qt::TextElideMode mode = Qt::ElideRight);

// An item delegate that elides cell text at word boundaries (in the view's
// textElideMode, right or middle) and shows the whole text as the tooltip
// of a cell that had to be shortened.
class WordElideDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    bool helpEvent(QHelpEvent* event, QAbstractItemView* view, const QStyleOptionViewItem& option,
                   const QModelIndex& index) override;
    // The text a cell of `option`'s rect shows for `index`, shortened as painted.
    QString shownText(const QStyleOptionViewItem& option, const QModelIndex& index) const;
    // The whole text's size: columns sized to contents fit it unshortened.
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;
    // The text to show before shortening and how to shorten it: by default
    // the model's and the view's.
    virtual QString fullText(const QModelIndex& index, const QString& display) const {
        Q_UNUSED(index);
        return display;
    }
    virtual Qt::TextElideMode elideModeFor(const QModelIndex& index, Qt::TextElideMode mode) const {
        Q_UNUSED(index);
        return mode;
    }
};

}  // namespace hsdp
