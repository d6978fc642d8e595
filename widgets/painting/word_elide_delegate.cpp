// SPDX-License-Identifier: Apache-2.0
#include "painting/word_elide_delegate.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QHelpEvent>
#include <QStyle>
#include <QToolTip>
#include <algorithm>
#include <vector>

namespace hsdp {

namespace {

const QString kEllipsis = QStringLiteral("…");

bool endsWord(QChar c) {
    return c == QLatin1Char(' ') || c == QLatin1Char(',') || c == QLatin1Char('.');
}

// The positions where a cut may fall: after each run of word-ending characters.
std::vector<qsizetype> cutPoints(const QString& text) {
    std::vector<qsizetype> cuts;
    for (qsizetype i = 0; i + 1 < text.size(); ++i)
        if (endsWord(text[i]) && !endsWord(text[i + 1])) cuts.push_back(i + 1);
    return cuts;
}

QString elideRight(const QString& text, const std::vector<qsizetype>& cuts,
                   const QFontMetrics& metrics, int width) {
    QString best = kEllipsis;
    for (qsizetype cut : cuts) {
        QString candidate = text.left(cut) + kEllipsis;
        if (metrics.horizontalAdvance(candidate) > width) break;
        best = candidate;
    }
    return best;
}

QString elideLeft(const QString& text, const std::vector<qsizetype>& cuts,
                  const QFontMetrics& metrics, int width) {
    QString best = kEllipsis;
    for (auto cut = cuts.rbegin(); cut != cuts.rend(); ++cut) {
        QString candidate = kEllipsis + text.mid(*cut);
        if (metrics.horizontalAdvance(candidate) > width) break;
        best = candidate;
    }
    return best;
}

bool hasDigit(QStringView text) {
    return std::any_of(text.begin(), text.end(), [](QChar c) { return c.isDigit(); });
}

// The words of `text` (each with the characters that end it) that `kept`
// marks, with "…" for each run of words left out.
QString joinKept(const std::vector<QStringView>& words, const std::vector<bool>& kept) {
    QString out;
    for (size_t i = 0; i < words.size(); ++i) {
        if (kept[i])
            out += words[i];
        else if (i == 0 || kept[i - 1])
            out += kEllipsis;
    }
    return out;
}

// Both ends, keeping the numbers: the last word first, then each word with
// a digit from the left ("layers.37" says which layer "q_proj.weight" is),
// then more words from the end and, once those reach back to the numbers,
// from the start while they fit, "…" for each run left out:
// "model.layers.37.…q_proj.weight", or "…37.…weight" when narrow.
QString elideMiddle(const QString& text, const std::vector<qsizetype>& cuts,
                    const QFontMetrics& metrics, int width) {
    std::vector<QStringView> words;
    qsizetype from = 0;
    for (qsizetype cut : cuts) {
        words.push_back(QStringView(text).mid(from, cut - from));
        from = cut;
    }
    words.push_back(QStringView(text).mid(from));
    std::vector<bool> kept(words.size(), false);
    auto fits = [&](size_t word) {
        kept[word] = true;
        if (metrics.horizontalAdvance(joinKept(words, kept)) <= width) return true;
        kept[word] = false;
        return false;
    };
    if (!fits(words.size() - 1)) return elideRight(text, cuts, metrics, width);
    for (size_t i = 0; i < words.size(); ++i)
        if (hasDigit(words[i])) fits(i);
    size_t tail = words.size() - 1;  // kept from here to the end
    while (tail > 0 && (kept[tail - 1] || fits(tail - 1))) --tail;
    // The start only once the end reaches back to every kept number, so the
    // rows of a tree shorten alike ("…37.…q_proj.weight", not "model.…37.…weight").
    if (std::find(kept.begin(), kept.begin() + qsizetype(tail), true) ==
        kept.begin() + qsizetype(tail))
        for (size_t i = 0; i < tail && fits(i); ++i) {
        }
    return joinKept(words, kept);
}

int textWidthOf(const QStyleOptionViewItem& option) {
    const QStyle* style = option.widget ? option.widget->style() : QApplication::style();
    // As QCommonStyle lays out an item's text, and a pixel each side for a
    // grid line and rounding: text that fits here is never cut again by Qt.
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, option.widget) + 1;
    return option.rect.width() - 2 * margin - 2;
}

}  // namespace

QString elideAtWords(const QString& text, const QFontMetrics& metrics, int width,
                     Qt::TextElideMode mode) {
    if (mode == Qt::ElideNone || metrics.horizontalAdvance(text) <= width) return text;
    const std::vector<qsizetype> cuts = cutPoints(text);
    if (mode == Qt::ElideMiddle) return elideMiddle(text, cuts, metrics, width);
    if (mode == Qt::ElideLeft) return elideLeft(text, cuts, metrics, width);
    return elideRight(text, cuts, metrics, width);
}

void WordElideDelegate::initStyleOption(QStyleOptionViewItem* option,
                                        const QModelIndex& index) const {
    QStyledItemDelegate::initStyleOption(option, index);
    option->text = fullText(index, option->text);
    if (option->text.isEmpty() || option->rect.width() <= 0) return;
    Qt::TextElideMode mode = elideModeFor(index, option->textElideMode);
    if (mode == Qt::ElideNone) mode = Qt::ElideRight;
    option->text =
        elideAtWords(option->text, QFontMetrics(option->font), textWidthOf(*option), mode);
}

QString WordElideDelegate::shownText(const QStyleOptionViewItem& option,
                                     const QModelIndex& index) const {
    QStyleOptionViewItem shown = option;
    initStyleOption(&shown, index);
    return shown.text;
}

QSize WordElideDelegate::sizeHint(const QStyleOptionViewItem& option,
                                  const QModelIndex& index) const {
    QStyleOptionViewItem whole = option;
    whole.rect = QRect();  // no width: initStyleOption keeps the text
    // And the two pixels textWidthOf keeps for a grid line and rounding: a
    // column sized to its contents was 2 px short and cut "128256, 8192"
    // to "…8192".
    return QStyledItemDelegate::sizeHint(whole, index) + QSize(2, 0);
}

bool WordElideDelegate::helpEvent(QHelpEvent* event, QAbstractItemView* view,
                                  const QStyleOptionViewItem& option, const QModelIndex& index) {
    if (event->type() == QEvent::ToolTip && !index.data(Qt::ToolTipRole).isValid()) {
        QStyleOptionViewItem shown = option;
        initStyleOption(&shown, index);
        const QString full = fullText(index, index.data(Qt::DisplayRole).toString());
        if (shown.text != full) {
            QToolTip::showText(event->globalPos(), full, view);
            return true;
        }
    }
    return QStyledItemDelegate::helpEvent(event, view, option, index);
}

}  // namespace hsdp
