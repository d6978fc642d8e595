// SPDX-License-Identifier: Apache-2.0
#include "shared/word_elide_delegate.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QHelpEvent>
#include <QStyle>
#include <QToolTip>
#include <tuple>
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

// Runs of digits in `text`: the layer numbers that tell repeated layers apart.
int numbersIn(QStringView text) {
    int numbers = 0;
    for (qsizetype i = 0; i < text.size(); ++i)
        numbers += text[i].isDigit() && (i == 0 || !text[i - 1].isDigit());
    return numbers;
}

// Words from both ends: the head grows while the tail keeps as many words as
// fit beside it. A candidate keeping the last word wins, then the one keeping
// most numbers ("layers.37" says which layer "q_proj.weight" is), then the
// one keeping most characters.
QString elideMiddle(const QString& text, const std::vector<qsizetype>& cuts,
                    const QFontMetrics& metrics, int width) {
    QString best = elideRight(text, cuts, metrics, width);
    auto score = [&](qsizetype head, qsizetype tail) {
        const QStringView whole(text);
        return std::tuple(1, numbersIn(whole.left(head)) + numbersIn(whole.mid(tail)),
                          head + (text.size() - tail));
    };
    auto bestScore = std::tuple(0, numbersIn(best), best.size() - 1);
    std::vector<qsizetype> heads{0};
    heads.insert(heads.end(), cuts.begin(), cuts.end());
    for (qsizetype head : heads) {
        const QString start = text.left(head) + kEllipsis;
        if (metrics.horizontalAdvance(start) > width) break;
        for (qsizetype tail : cuts) {  // the first tail that fits is the longest
            if (tail <= head) continue;
            const QString candidate = start + text.mid(tail);
            if (metrics.horizontalAdvance(candidate) > width) continue;
            if (score(head, tail) > bestScore) {
                best = candidate;
                bestScore = score(head, tail);
            }
            break;
        }
    }
    return best;
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
    return QStyledItemDelegate::sizeHint(whole, index);
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
