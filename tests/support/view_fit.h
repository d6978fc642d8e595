// SPDX-License-Identifier: Apache-2.0
#pragma once

// Does a view's content fit the space it has? For a widget laid out at some
// size: no two visible sibling widgets overlap, and every visible widget is
// at least as large as the minimum its contents need (its layout's minimum
// when it has a layout, which a minimum set on the widget itself would
// otherwise hide; else its minimum size or minimumSizeHint). A widget
// squeezed below that draws its children over each other or cuts them.

#include <QLayout>
#include <QString>
#include <QStringList>
#include <QWidget>

namespace hsdp::testing {

inline QString describe(const QWidget* w) {
    QString name = QString::fromLatin1(w->metaObject()->className());
    if (!w->objectName().isEmpty()) name += QLatin1Char('#') + w->objectName();
    return name;
}

// What the widget's contents need, as Qt's layouts compute it.
inline QSize contentMinimum(const QWidget* w) {
    if (const QLayout* layout = w->layout()) return layout->totalMinimumSize();
    QSize hint = w->minimumSizeHint().expandedTo(QSize(0, 0));
    const QSizePolicy policy = w->sizePolicy();
    if (policy.horizontalPolicy() == QSizePolicy::Ignored) hint.setWidth(0);
    if (policy.verticalPolicy() == QSizePolicy::Ignored) hint.setHeight(0);
    if (w->minimumWidth() > 0) hint.setWidth(w->minimumWidth());
    if (w->minimumHeight() > 0) hint.setHeight(w->minimumHeight());
    return hint.boundedTo(w->maximumSize());
}

inline bool layoutHolds(const QLayout* layout, const QWidget* w) {
    for (int i = 0; layout && i < layout->count(); ++i) {
        QLayoutItem* item = layout->itemAt(i);
        if (item->widget() == w || layoutHolds(item->layout(), w)) return true;
    }
    return false;
}

// Minimums are a layout's (or a splitter's) promise: a widget its parent
// places by hand (a header in a table, a spin box's line edit) is left out.
inline bool isLaidOut(const QWidget* w) {
    const QWidget* parent = w->parentWidget();
    return parent && (layoutHolds(parent->layout(), w) || parent->inherits("QSplitter"));
}

inline void collectFitProblems(const QWidget* w, QStringList& problems, bool root = false) {
    const QSize need = contentMinimum(w);
    if ((root || isLaidOut(w)) && (w->width() < need.width() || w->height() < need.height()))
        problems << QStringLiteral("%1 is %2x%3, its contents need %4x%5")
                        .arg(describe(w))
                        .arg(w->width())
                        .arg(w->height())
                        .arg(need.width())
                        .arg(need.height());
    QList<const QWidget*> children;
    for (const QObject* object : w->children()) {
        const auto* child = qobject_cast<const QWidget*>(object);
        if (child && !child->isWindow() && child->isVisibleTo(w) && !child->size().isEmpty())
            children << child;
    }
    for (qsizetype i = 0; i < children.size(); ++i)
        for (qsizetype j = i + 1; j < children.size(); ++j)
            if (children[i]->geometry().intersects(children[j]->geometry()))
                problems << QStringLiteral("%1 and %2 overlap in %3")
                                .arg(describe(children[i]), describe(children[j]), describe(w));
    for (const QWidget* child : children) collectFitProblems(child, problems);
}

// Every problem of `root` and the widgets in it, one line each; empty: it fits.
inline QStringList fitProblems(const QWidget* root) {
    QStringList problems;
    collectFitProblems(root, problems, true);
    return problems;
}

}  // namespace hsdp::testing
