// SPDX-License-Identifier: Apache-2.0
#include "wrong_rows/wrong_rows_widget.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QStringList>
#include <QToolTip>
#include <algorithm>
#include <set>

#include "derived/run/run_status_text.h"

namespace hsdp {

namespace {

constexpr double kMargin = 12;
constexpr double kTitle = 58;
constexpr double kAxis = 56;  // row numbers left of the first bar
constexpr double kBarWidth = 46;
constexpr double kPairGap = 110;  // room for "rows a–b" labels right of a reference bar
constexpr double kLegendWidth = 230;
constexpr double kErrorLine = 20;  // a param that failed with an error
constexpr int kMinimumHeight = 360;

QString rangeText(const IndexRange& r) {
    return r.size() == 1 ? QString::number(r.begin)
                         : QStringLiteral("%1–%2").arg(r.begin).arg(r.end - 1);
}

QString verdict(GatherVerdict v) {
    return gatherVerdictText(v);
}

}  // namespace

QRectF ComparisonGeometry::band(const QRectF& bar, const IndexRange& r) const {
    const double top = bar.top() + rowPitch * double(r.begin);
    const double bottom = bar.top() + rowPitch * double(r.end);
    return QRectF(bar.left(), top, bar.width(), std::max(bottom - top, 1.0));
}

WrongRowsWidget::WrongRowsWidget(PlanSelection* selection, QWidget* parent)
    : QWidget(parent), selection_(selection) {
    // Two ranks' rows side by side with their captions need this much; a
    // dock smaller than that scrolls it.
    setMinimumSize(560, kMinimumHeight);
    connect(selection_, &PlanSelection::changed, this, &WrongRowsWidget::recompute);
}

void WrongRowsWidget::setRuns(const RunData& corrected, const RunData& reference) {
    corrected_ = corrected;
    reference_ = reference;
    recompute();
}

// The two runs compare param by param index: they must be of one plan, so a
// run of another plan drops the other mode's run.
void WrongRowsWidget::setRun(const RunData& data) {
    const bool reference = data.isValid() && data.run->mode == RunMode::Reference;
    (reference ? reference_ : corrected_) = data;
    RunData& other = reference ? corrected_ : reference_;
    if (other.isValid() && data.isValid() && other.plan.plan != data.plan.plan) other = {};
    recompute();
}

void WrongRowsWidget::recompute() {
    comparison_ = {};
    errors_ = reference_.isValid() ? errorRows(*reference_.run) : std::vector<ErrorRow>{};
    // The reference run's own verification names its wrong rows against the
    // true result: it draws alone, each copy beside the truth, and a
    // corrected run, where there is one, takes the truth's place.
    if (reference_.isValid()) {
        int param = selection_ ? selection_->focusParamFor(reference_.plan) : -1;
        // A collective of several params (a step, a fused gather): the first
        // whose gather went wrong, not a batch-mate that came out right.
        if (selection_)
            for (int p : selection_->stateFor(reference_.plan).params)
                if (gatherMismatched(*reference_.run, p)) {
                    param = p;
                    break;
                }
        if (param < 0) param = firstReferenceMismatch(*reference_.run);
        if (param >= 0)
            comparison_ = compareWrongRows(corrected_.isValid() ? *corrected_.run : RunResult{},
                                           *reference_.run, param);
    }
    // The lines of the params that failed with an error come on top of the bars' room.
    const size_t lines =
        errors_.empty() ? 0 : std::min<size_t>(errors_.size(), kErrorRowsShown) + 1;
    setMinimumHeight(kMinimumHeight + int(double(lines) * kErrorLine) + (lines ? 8 : 0));
    update();
}

ComparisonGeometry WrongRowsWidget::geometry(const QSize& size) const {
    ComparisonGeometry g;
    g.rows = comparison_.extent();
    // From the top: the title (with bars), the params that failed with an
    // error, then the bars or the message saying why there are none.
    double y = showsBars() ? kTitle : kMargin;
    const double width = size.width() - 2 * kMargin;
    if (!errors_.empty()) {
        g.errorsHeader = QRectF(kMargin, y, width, kErrorLine);
        y += kErrorLine;
        const size_t shown =
            errors_.size() <= size_t(kErrorRowsShown) ? errors_.size() : kErrorRowsShown - 1;
        for (size_t i = 0; i < shown; ++i) {
            g.errorRows.push_back({errors_[i].param, QRectF(kMargin, y, width, kErrorLine)});
            y += kErrorLine;
        }
        g.hiddenErrorRows = int(errors_.size() - shown);
        if (g.hiddenErrorRows > 0) y += kErrorLine;
        y += 8;
    }
    g.message = QRectF(kMargin, y, width, std::max(kErrorLine, size.height() - y - kMargin));
    const double legendWidth = std::min(kLegendWidth, size.width() * 0.3);
    const double right = size.width() - kMargin - legendWidth;
    g.legend = QRectF(right + kMargin, y, legendWidth - kMargin, size.height() - y - kMargin);
    const double noteLines = double(std::min<size_t>(comparison_.ranks.size(), 6)) + 1;
    const double notesHeight = 18 * noteLines + 8;
    const double top = y + 22, bottom = size.height() - kMargin - notesHeight;
    g.notes = QRectF(kMargin, bottom + 8, right - kMargin, notesHeight - 8);
    const double room = right - kMargin - kAxis;
    const size_t fit = size_t(std::max(1.0, room / (2 * kBarWidth + 8 + kPairGap)));
    const size_t shown = std::min(fit, comparison_.ranks.size());
    g.hiddenRanks = int(comparison_.ranks.size() - shown);
    // Bars widen to use the room, up to twice the minimum.
    const double pairWidth =
        std::min(room / double(std::max<size_t>(shown, 1)), 2 * (2 * kBarWidth + 8) + kPairGap);
    const double bar = (pairWidth - kPairGap - 8) / 2;
    const double height = bottom - top - 16;
    g.rowPitch = height / double(std::max<int64_t>(g.rows, 1));
    const double truth = g.rowPitch * double(comparison_.rows);
    double x = kMargin + kAxis;
    for (size_t i = 0; i < shown; ++i) {
        g.pairs.push_back({comparison_.ranks[i], QRectF(x, top, bar, truth),
                           QRectF(x + bar + 8, top, bar, height)});
        x += pairWidth;
    }
    return g;
}

// Why there are no bars, from the top left: the dock may show only the
// first lines of the view.
QString WrongRowsWidget::messageText() const {
    if (!corrected_.isValid() && !reference_.isValid())
        return tr(
            "Run the plan in both modes (corrected and reference) to compare the "
            "gathered rows.");
    if (!reference_.isValid())
        return tr(
            "Run the plan in reference mode too (Run ▸ Run reference) to compare its "
            "gathered rows with this corrected run's.");
    if (!comparison_.isValid() && firstReferenceMismatch(*reference_.run) >= 0)
        return tr(
            "The selected parameter did not run in these runs: select one that did to "
            "compare its gathered rows.");
    if (!comparison_.isValid())
        return errors_.empty() ? tr("Select a parameter: the reference run gathers every "
                                    "parameter exactly.")
                               : tr("No gathered row of the reference run differs; the lines "
                                    "above are the parameters it failed with an error.");
    const QString name = QString::fromStdString(comparison_.name);
    const bool hasLine = std::any_of(errors_.begin(), errors_.end(), [&](const ErrorRow& r) {
        return r.param == comparison_.param;
    });
    if (comparison_.reference == GatherVerdict::Error)
        return tr("%1: the reference run's gather failed with an error (its line above), so "
                  "it gathered no rows to compare.")
            .arg(name);
    // Gathered right and then wrong: the fault is in the step (an update
    // applied to the wrong rows), which this view, of gathered rows, does
    // not draw; said, or "no gathered row differs" read as "nothing wrong".
    const auto stepWrong = std::find_if(
        reference_.run->params.begin(), reference_.run->params.end(), [&](const ParamRunResult& p) {
            return p.index == comparison_.param && p.step != CheckVerdict::Exact &&
                   p.step != CheckVerdict::NotReached;
        });
    if (stepWrong != reference_.run->params.end() && !hasLine)
        return tr("%1: gathered right (no gathered row differs), but the reference run's step "
                  "result is wrong: %2. This view draws gathered rows; the Tensor layout and "
                  "Verification views show the step's wrong rows.")
            .arg(name, QString::fromStdString(stepWrong->detail));
    const QString verdicts =
        corrected_.isValid()
            ? tr("corrected %1, reference %2")
                  .arg(verdict(comparison_.corrected), verdict(comparison_.reference))
            : tr("reference %1").arg(verdict(comparison_.reference));
    return tr("%1: no gathered row differs (%2). %3")
        .arg(name, verdicts,
             hasLine ? tr("It failed with an error: its line above says where.")
                     : QString::fromStdString(comparison_.referenceDetail));
}

// A shrunk run's rows are its tensors' (a 8,192-row weight has 72 at 1/113):
// said, or "rows 16–19" reads as rows of the real weight.
QString WrongRowsWidget::shrunkNote() const {
    const RunResult& run = *reference_.run;
    if (!run.shrink || run.shrink->factor <= 1) return {};
    const auto& params = reference_.plan.scenario->params;
    const size_t p = size_t(comparison_.param);
    const int64_t real =
        p < params.size() && !params[p].shape.empty() ? params[p].shape.front() : 0;
    return tr(" Shrunk run: rows are the shrunk tensor's (%1 of the real %2).")
        .arg(comparison_.rows)
        .arg(real);
}

// "embed.weight · gather error: ranks 0, 1, 2: the reference's …"
QString WrongRowsWidget::errorRowText(const ErrorRow& row) const {
    return QStringLiteral("%1 · %2").arg(QString::fromStdString(row.name), row.text);
}

QString WrongRowsWidget::errorsHeaderText(bool picture) const {
    return (picture ? tr("Failed with an error in the reference run (%1): each line's whole "
                         "text is in the verification table")
                    : tr("Failed with an error in the reference run (%1): hover a line for its "
                         "whole text, click it to select the param"))
        .arg(errors_.size());
}

void WrongRowsWidget::paintErrorRows(QPainter& painter, const ComparisonGeometry& g,
                                     bool picture) const {
    if (errors_.empty()) return;
    const QFont plain = painter.font();
    QFont bold = plain;
    bold.setBold(true);
    painter.setPen(palette().text().color());
    painter.setFont(bold);
    painter.drawText(g.errorsHeader, Qt::AlignLeft | Qt::AlignVCenter,
                     QFontMetrics(bold).elidedText(errorsHeaderText(picture), Qt::ElideRight,
                                                   int(g.errorsHeader.width())));
    for (size_t i = 0; i < g.errorRows.size(); ++i) {
        const QRectF line = g.errorRows[i].rect;
        const bool focus = errors_[i].param == comparison_.param;
        painter.fillRect(QRectF(line.left(), line.top() + 4, 12, 12), wrongColor());
        painter.setFont(focus ? bold : plain);
        const QRectF text = line.adjusted(20, 0, 0, 0);
        painter.drawText(text, Qt::AlignLeft | Qt::AlignVCenter,
                         painter.fontMetrics().elidedText(errorRowText(errors_[i]), Qt::ElideRight,
                                                          int(text.width())));
    }
    painter.setFont(plain);
    if (g.hiddenErrorRows > 0)
        painter.drawText(
            QRectF(g.errorsHeader.left() + 20,
                   g.errorRows.empty() ? g.errorsHeader.bottom() : g.errorRows.back().rect.bottom(),
                   g.errorsHeader.width() - 20, kErrorLine),
            Qt::AlignLeft | Qt::AlignVCenter,
            tr("… and %1 more: the Verification view lists every param").arg(g.hiddenErrorRows));
}

QString WrongRowsWidget::toolTipAt(const QPointF& pos) const {
    const ComparisonGeometry g = geometry(size());
    for (size_t i = 0; i < g.errorRows.size(); ++i)
        if (g.errorRows[i].rect.contains(pos)) return errorRowText(errors_[i]);
    return {};
}

bool WrongRowsWidget::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip) return QWidget::event(event);
    auto* help = static_cast<QHelpEvent*>(event);
    const QString text = toolTipAt(help->pos());
    if (text.isEmpty()) {
        QToolTip::hideText();
        event->ignore();
    } else {
        // Rich text: a long error wraps instead of running off the screen.
        QToolTip::showText(help->globalPos(), QStringLiteral("<p>%1</p>").arg(text.toHtmlEscaped()),
                           this);
    }
    return true;
}

// A click on a param's error line selects the param in every view.
void WrongRowsWidget::mouseReleaseEvent(QMouseEvent* event) {
    if (!selection_ || !reference_.isValid()) return;
    for (const auto& line : geometry(size()).errorRows)
        if (line.rect.contains(event->position())) {
            SelectionState state;
            state.params = {line.param};
            selection_->set(state, reference_.plan);
            return;
        }
}

void WrongRowsWidget::paint(QPainter& painter, const QSize& size, bool picture) const {
    painter.fillRect(QRect(QPoint(0, 0), size), palette().base());
    painter.setPen(palette().text().color());
    const ComparisonGeometry g = geometry(size);
    paintErrorRows(painter, g, picture);
    if (!showsBars()) {
        painter.drawText(g.message, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, messageText());
        return;
    }
    QFont bold = painter.font();
    bold.setBold(true);
    const QFont plain = painter.font();
    painter.setFont(bold);
    painter.drawText(QRectF(kMargin, 6, size.width() - 2 * kMargin, 20),
                     Qt::AlignLeft | Qt::AlignVCenter, titleText());
    painter.setFont(plain);
    painter.drawText(QRectF(kMargin, 26, size.width() - 2 * kMargin, 30),
                     Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                     tr("Each rank's gathered copy, row 0 at the top: in red the rows the run "
                        "results' mismatches name (their text below); a reference copy taller "
                        "than the tensor holds rows read from padding.%1")
                         .arg(shrunkNote()));
    paintAxis(painter, g);
    for (size_t i = 0; i < g.pairs.size(); ++i) paintPair(painter, g, i);
    paintNotes(painter, g);
    paintLegend(painter, g.legend);
}

void WrongRowsWidget::paintPair(QPainter& painter, const ComparisonGeometry& g, size_t i) const {
    const auto& pair = g.pairs[i];
    const auto& metrics = painter.fontMetrics();
    painter.setPen(palette().text().color());
    painter.drawText(
        QRectF(pair.corrected.left() - 4, pair.corrected.top() - 20, 2 * kBarWidth + 16, 16),
        Qt::AlignHCenter | Qt::AlignVCenter, tr("rank %1").arg(pair.rank));
    auto bar = [&](const QRectF& rect, const GatheredCopy& copy, const QString& caption) {
        // Rows past the tensor exist only where a mismatch names them.
        const IndexRange truth{0, comparison_.rows};
        painter.fillRect(g.band(rect, truth).intersected(rect), exactColor());
        for (const auto& r : copy.wrongRows) {
            const QRectF b = g.band(rect, r);
            painter.fillRect(b, wrongColor());
            painter.setPen(QPen(wrongColor().darker(160), 1));
            painter.drawLine(b.topLeft(), b.topRight());  // adjacent ranges stay apart
        }
        painter.setPen(QPen(palette().text().color(), 1));
        painter.drawRect(g.band(rect, truth).intersected(rect).adjusted(0, 0, -1, -1));
        if (rect.bottom() > g.band(rect, truth).bottom() + 1) {
            painter.setPen(QPen(palette().text().color(), 1, Qt::DotLine));
            painter.drawRect(rect.adjusted(0, 0, -1, -1));
        }
        painter.drawText(QRectF(rect.left() - 6, rect.bottom() + 2, rect.width() + 12, 14),
                         Qt::AlignHCenter | Qt::AlignTop, caption);
    };
    bar(pair.corrected, comparison_.correctedCopies[i],
        corrected_.isValid() ? tr("corr.") : tr("truth"));
    bar(pair.reference, comparison_.referenceCopies[i], tr("ref."));
    // Label the wrong rows right of the reference bar, skipping overlaps.
    double lastBottom = -1e9;
    painter.setPen(wrongColor().darker(130));
    for (const auto& r : comparison_.referenceCopies[i].wrongRows) {
        const QRectF b = g.band(pair.reference, r);
        const double y = std::max(b.center().y() - 8, lastBottom);
        if (y + 16 > pair.reference.bottom() + 8) break;
        painter.drawText(
            QRectF(pair.reference.right() + 6, y, kPairGap - 12, 16),
            Qt::AlignLeft | Qt::AlignVCenter,
            metrics.elidedText((r.size() == 1 ? tr("row %1") : tr("rows %1")).arg(rangeText(r)),
                               Qt::ElideRight, int(kPairGap) - 12));
        lastBottom = y + 16;
    }
}

void WrongRowsWidget::paintAxis(QPainter& painter, const ComparisonGeometry& g) const {
    if (g.pairs.empty()) return;
    const QRectF bar = g.pairs.front().corrected;
    std::set<int64_t> ticks{0, g.rows};
    for (const auto& copy : comparison_.referenceCopies)
        for (const auto& r : copy.wrongRows) ticks.insert({r.begin, r.end});
    painter.setPen(palette().text().color());
    double lastY = -1e9;
    for (int64_t t : ticks) {
        const double y = bar.top() + g.rowPitch * double(t);
        if (y - lastY < 14 && t != g.rows) continue;
        painter.drawText(QRectF(kMargin, y - 8, kAxis - 14, 16), Qt::AlignRight | Qt::AlignVCenter,
                         QString::number(t));
        painter.drawLine(QPointF(bar.left() - 8, y), QPointF(bar.left() - 2, y));
        lastY = y;
    }
}

void WrongRowsWidget::paintNotes(QPainter& painter, const ComparisonGeometry& g) const {
    const auto& metrics = painter.fontMetrics();
    double y = g.notes.top();
    painter.setPen(palette().text().color());
    const size_t lines = size_t(std::max(0.0, g.notes.height() / 18 - 1));
    size_t i = 0;
    for (; i < comparison_.ranks.size() && i < lines; ++i) {
        const auto& copy = comparison_.referenceCopies[i];
        painter.drawText(
            QRectF(g.notes.left(), y, g.notes.width(), 18), Qt::AlignLeft | Qt::AlignVCenter,
            metrics.elidedText(tr("reference, %1").arg(QString::fromStdString(copy.text)),
                               Qt::ElideRight, int(g.notes.width())));
        y += 18;
    }
    if (i < comparison_.ranks.size() || g.hiddenRanks > 0)
        painter.drawText(QRectF(g.notes.left(), y, g.notes.width(), 18),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         tr("… %1 ranks with wrong rows in all").arg(comparison_.ranks.size()));
}

void WrongRowsWidget::paintLegend(QPainter& painter, const QRectF& area) const {
    const double line = painter.fontMetrics().height() + 4;
    double y = area.top();
    auto entry = [&](const QColor& color, const QString& text) {
        painter.fillRect(QRectF(area.left(), y + 2, 14, 14), color);
        painter.setPen(palette().text().color());
        painter.drawText(QRectF(area.left() + 20, y, area.width() - 20, 2 * line),
                         Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, text);
        y += 2 * line;
    };
    entry(exactColor(), tr("rows equal to the truth"));
    entry(wrongColor(), tr("rows the run result names as wrong"));
    painter.setPen(QPen(palette().text().color(), 1, Qt::DotLine));
    painter.drawRect(QRectF(area.left(), y + 2, 13, 13));
    painter.setPen(palette().text().color());
    painter.drawText(QRectF(area.left() + 20, y, area.width() - 20, 2 * line),
                     Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                     tr("past the tensor's last row"));
    y += 2 * line;
    // The rest of the column: the note runs to 6 lines in a narrow legend.
    painter.drawText(QRectF(area.left(), y, area.width(), std::max(4 * line, area.bottom() - y)),
                     Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                     corrected_.isValid()
                         ? tr("corr.: corrected mode, ref.: the reference's algorithms as "
                              "written; one pair per rank that gathered the parameter wrong.")
                         : tr("truth: the true result the reference run was verified against "
                              "(no corrected run yet: Run ▸ Run adds it), ref.: the reference's "
                              "algorithms as written; one pair per rank that gathered the "
                              "parameter wrong."));
}

// "w: gathered rows of dim 0, corrected (exact) vs reference (mismatch)",
// or, without a corrected run, against the true result.
QString WrongRowsWidget::titleText() const {
    const QString name = QString::fromStdString(comparison_.name);
    if (!corrected_.isValid())
        return tr("%1: gathered rows of dim 0, the true result vs reference (%2)")
            .arg(name, verdict(comparison_.reference));
    return tr("%1: gathered rows of dim 0, corrected (%2) vs reference (%3)")
        .arg(name, verdict(comparison_.corrected), verdict(comparison_.reference));
}

QImage WrongRowsWidget::renderImage(const QSize& size) const {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    paint(painter, size, true);
    return image;
}

void WrongRowsWidget::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    paint(painter, size());
}

void WrongRowsWidget::showRun(const RunData& run) {
    if (run.isValid())
        setRun(run);
    else
        setRuns({}, {});
}

// A picture only of runs with something wrong: a verified run's was an
// almost blank page among --screenshot's files.
QList<ViewShot> WrongRowsWidget::screenshots() const {
    auto anyWrong = [](const RunData& run) {
        return run.isValid() && std::any_of(run.run->params.begin(), run.run->params.end(),
                                            [](const ParamRunResult& p) { return paramFailed(p); });
    };
    if (!anyWrong(corrected_) && !anyWrong(reference_)) return {};
    return {ViewShot{{}, QSize(1200, 800), {}}};
}

void WrongRowsWidget::paintPicture(QPaintDevice& target, const QSize& size, const QString&) {
    paintOnWhite(target, size, [&](QPainter& painter) { paint(painter, size, true); });
}

}  // namespace hsdp
