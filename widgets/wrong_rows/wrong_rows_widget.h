// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QColor>
#include <QImage>
#include <QPointer>
#include <QRectF>
#include <QWidget>
#include <vector>

#include "derived/plan/plan_selection.h"
#include "derived/run/run_data.h"
#include "view/studio_view.h"
#include "wrong_rows/wrong_rows.h"

namespace hsdp {

// Where the bars sit for one picture size: per compared rank, the corrected
// and the reference copy of the param's gathered rows, row 0 at the top
// (a copy is as tall as its rows: the corrected one as the tensor).
struct ComparisonGeometry {
    struct Pair {
        int rank = -1;
        QRectF corrected;
        QRectF reference;
    };
    std::vector<Pair> pairs;
    int64_t rows = 0;     // the rows spanned (WrongRows::extent)
    double rowPitch = 0;  // pixels per row
    int hiddenRanks = 0;  // ranks that did not fit
    QRectF notes;         // the mismatch texts
    QRectF legend;
    // The params the reference run failed with an error, one line each
    // above the bars (at most five, then a line that counts the rest:
    // hiddenErrorRows); their header; where the view's message goes
    // when there are no bars.
    struct ErrorLine {
        int param = -1;
        QRectF rect;
    };
    std::vector<ErrorLine> errorRows;
    QRectF errorsHeader;
    int hiddenErrorRows = 0;
    QRectF message;

    // The band of rows [r.begin, r.end) inside `bar`.
    QRectF band(const QRectF& bar, const IndexRange& r) const;
};

// Wrong rows: the selection's focus param (else the first param whose
// reference gather mismatches) gathered by the corrected run next to the
// reference run, per rank the run results name, the rows the reference got
// wrong filled in the warning colour with their Mismatch text. Nothing is
// guessed: the rows are Mismatch::rows of the RunResults. A param the
// reference run failed with an error (errorRows) has a line of its own at
// the top, its text elided to the width and whole in the line's tooltip;
// a click on it selects the param. Everything that says why there are no
// bars starts at the top, where a short bottom dock shows it.
class WrongRowsWidget : public QWidget, public StudioView {
    Q_OBJECT
public:
    explicit WrongRowsWidget(PlanSelection* selection, QWidget* parent = nullptr);

    QWidget* widget() override { return this; }
    // A valid run is the corrected or the reference one by its mode; none clears both.
    void showRun(const RunData& run) override;
    QList<ViewShot> screenshots() const override;
    QImage picture(const QSize& size, const QString&) override { return renderImage(size); }
    void paintPicture(QPaintDevice& target, const QSize& size, const QString& part) override;

    void setRuns(const RunData& corrected, const RunData& reference);
    // One run at a time: it takes the place of the run of its mode.
    void setRun(const RunData& data);
    const RunData& correctedRun() const { return corrected_; }
    const RunData& referenceRun() const { return reference_; }
    const WrongRows& comparison() const { return comparison_; }

    ComparisonGeometry geometry(const QSize& size) const;
    // `picture`: for a picture (a report, an export), which no one can hover
    // or click: its words say where each line's whole text is instead.
    void paint(QPainter& painter, const QSize& size, bool picture = false) const;
    // The error lines' heading, on screen or in a picture.
    QString errorsHeaderText(bool picture) const;
    QImage renderImage(const QSize& size) const;

    static QColor exactColor() { return QColor(0x9c, 0xc9, 0x8f); }
    static QColor wrongColor() { return QColor(0xd6, 0x27, 0x28); }

    QSize sizeHint() const override { return {720, 520}; }
    // What the subtitle adds for a shrunk run: " Shrunk run: rows are the
    // shrunk tensor's (72 of the real 8192)."; empty for a real-size run.
    QString shrunkNote() const;
    // Why there are no bars (drawn in their place), or "" with bars.
    QString messageText() const;
    // The bars' title: the param, and the runs compared with their verdicts.
    QString titleText() const;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    static constexpr int kErrorRowsShown = 5;
    void recompute();
    // The whole text of the error line at `pos` (its tooltip), empty elsewhere.
    QString toolTipAt(const QPointF& pos) const;
    bool showsBars() const { return comparison_.isValid() && !comparison_.ranks.empty(); }
    QString errorRowText(const ErrorRow& row) const;
    void paintErrorRows(QPainter& painter, const ComparisonGeometry& g, bool picture) const;
    void paintPair(QPainter& painter, const ComparisonGeometry& g, size_t i) const;
    void paintAxis(QPainter& painter, const ComparisonGeometry& g) const;
    void paintNotes(QPainter& painter, const ComparisonGeometry& g) const;
    void paintLegend(QPainter& painter, const QRectF& area) const;

    QPointer<PlanSelection> selection_;
    RunData corrected_, reference_;
    WrongRows comparison_;
    std::vector<ErrorRow> errors_;  // of reference_
};

}  // namespace hsdp
