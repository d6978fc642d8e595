// SPDX-License-Identifier: Apache-2.0
#include "traffic/traffic_widget.h"

#include <qcustomplot.h>

#include <algorithm>

#include <cmath>

#include <QApplication>
#include <QFontMetrics>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include "derived/run/step_caption.h"
#include "run/shrink.h"
#include "view/offscreen_grab.h"

namespace hsdp {

namespace {

const QColor kAlgColour(0x4c, 0x78, 0xa8);
const QColor kBusColour(0xf5, 0x85, 0x18);
constexpr int kMinPlotHeight = 100;  // of the bars
// Above and below the bars: the title's row and the rotated op names (about
// 90 px with the samples' mesh dim names).
constexpr int kPlotMargins = 130;
constexpr double kLabelRotation = 20;  // degrees
constexpr double kFirstKey = -0.7;     // the key range's left end
constexpr double kGB = 1e9;            // NCCL-tests: 1 GB/s = 1e9 bytes/s

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

QString rateText(double bytesPerSecond) {
    return qs(bandwidthText(bytesPerSecond));
}

// A row's bytes: of the shrunk run, with the real-size figure beside them.
QString rowBytes(double bytes, double real, bool shrunk) {
    return shrunk
               ? QStringLiteral("%1 (≈ %2 real)").arg(qs(humanBytes(bytes)), qs(humanBytes(real)))
               : qs(humanBytes(bytes));
}

QString msText(double seconds) {
    return QStringLiteral("%1 ms").arg(seconds * 1e3, 0, 'f', 2);
}

QCPBars* makeBars(QCustomPlot* plot, const QColor& colour, const QString& name) {
    auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
    bars->setName(name);
    bars->setPen(QPen(colour.darker(130)));
    bars->setBrush(colour);
    bars->setWidth(0.36);
    return bars;
}

QTableWidget* makeTable(const QStringList& headers, QWidget* parent) {
    auto* table = new QTableWidget(parent);
    table->setColumnCount(static_cast<int>(headers.size()));
    table->setHorizontalHeaderLabels(headers);
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->horizontalHeader()->setStretchLastSection(true);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->setWordWrap(false);
    table->setAlternatingRowColors(true);
    return table;
}

// Numbers right-aligned, words (column 0 and `textColumns`) left.
void setRow(QTableWidget* table, int row, const QStringList& cells,
            std::initializer_list<int> textColumns = {}) {
    for (int c = 0; c < cells.size(); ++c) {
        auto* item = new QTableWidgetItem(cells[c]);
        item->setToolTip(cells[c]);
        const bool text =
            c == 0 || std::find(textColumns.begin(), textColumns.end(), c) != textColumns.end();
        if (!text) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table->setItem(row, c, item);
    }
}

QStringList statCells(const TrafficRow& row, bool shrunk) {
    return {row.key,
            qs(groupedCount(row.collectives)),
            qs(groupedCount(row.events)),
            rowBytes(static_cast<double>(row.wireBytes), row.realWireBytes, shrunk),
            rowBytes(row.sizeBytes, row.realSizeBytes, shrunk),
            msText(row.seconds),
            msText(row.wallSeconds),
            rateText(row.algbw()),
            rateText(row.busbw())};
}

QStringList statHeaders(bool shrunk) {
    const QString of = shrunk ? QStringLiteral(", shrunk run") : QString();
    return {QStringLiteral("op / mesh dim"),    QStringLiteral("collectives"),
            QStringLiteral("per-rank events"),  QStringLiteral("sent (wire%1)").arg(of),
            QStringLiteral("size S%1").arg(of), QStringLiteral("Σ t (summed over collectives)"),
            QStringLiteral("busy wall"),        QStringLiteral("algbw S/t%1").arg(of),
            QStringLiteral("busbw%1").arg(of)};
}

}  // namespace

TrafficWidget::TrafficWidget(PlanSelection* selection, QWidget* parent)
    : QWidget(parent),
      selection_(selection),
      plot_(new QCustomPlot(this)),
      table_(makeTable(statHeaders(false), this)),
      slowest_(makeTable({tr("order"), tr("collective"), tr("op"), tr("phase"), tr("ranks"),
                          tr("size S"), tr("time t"), tr("waited"), tr("params")},
                         this)),
      note_(new QLabel(this)) {
    table_->horizontalHeader()->setStretchLastSection(false);
    algBars_ = makeBars(plot_, kAlgColour, tr("algbw = S / t"));
    busBars_ = makeBars(plot_, kBusColour, tr("busbw = algbw × factor"));
    // The unit and the legend in a row of their own above the bars: the
    // legend inside the axis rect covered the last group's bars, and the
    // unit along the value axis made the plot taller than a bottom dock at
    // 1440 x 900, which scrolled the names under the bars out of view.
    plot_->legend->setVisible(true);
    plot_->legend->setFont(QFont(font().family(), 8));
    plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot_->legend->setBorderPen(Qt::NoPen);
    auto* header = new QCPLayoutGrid;
    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(0, 0, header);
    plot_->plotLayout()->setRowStretchFactor(0, 0.001);
    axisTitle_ = new QCPTextElement(plot_, QString(), QFont(font().family(), 9, QFont::Bold));
    header->addElement(0, 0, axisTitle_);
    header->addElement(0, 1, plot_->legend);
    setAxisTitle(false);
    plot_->xAxis->setTickLabelRotation(kLabelRotation);
    // The rotated names run right of their ticks: the last one's needs room
    // past the last bars, which depends on the plot's width.
    connect(plot_, &QCustomPlot::beforeReplot, this, &TrafficWidget::fitKeyRange);
    auto* note = note_;
    note->setText(noRunText());
    plot_->hide();  // until a run comes (setRun)
    note->setWordWrap(true);
    note->setStyleSheet(QStringLiteral("color: #555;"));
    auto* slowTitle = new QLabel(tr("<b>Slowest collectives</b> (click to select)"), this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(plot_, 3);
    layout->addWidget(note);
    layout->addWidget(table_);
    layout->addWidget(slowTitle);
    layout->addWidget(slowest_, 2);
    connect(slowest_, &QTableWidget::cellClicked, this, [this](int row, int) {
        if (!selection_ || row < 0 || static_cast<size_t>(row) >= stats().slowest.size()) return;
        const RunStep& step =
            steps()[static_cast<size_t>(stats().slowest[static_cast<size_t>(row)])];
        const TraceEvent& e = run_.run->trace.events[static_cast<size_t>(step.events.front())];
        selection_->selectCollective(step.seq, e.groupRanks, e.label.params, run_.plan);
    });
}

QString TrafficWidget::noteText() const {
    return note_->text();
}

QString TrafficWidget::noteText(bool shrunk) {
    QString text = tr(
        "NCCL-tests conventions, bandwidth in GB/s (1e9 bytes/s). S = the collective's size (the "
        "whole gathered or broadcast buffer), recovered from the trace's on-wire bytes: the "
        "participants send (n−1)·S together (all_reduce: 2(n−1)·S). t = last arrival to last "
        "finish; Σ t sums it over the row's collectives, which overlap, so it can exceed the "
        "run's wall time; busy wall is the time at least one of them ran. busbw factor: "
        "all_reduce 2(n−1)/n, all_gather / reduce_scatter / all_to_all (n−1)/n, broadcast 1. "
        "A collective is one call across its group, counted once; per-rank events count each "
        "member's part.");
    if (shrunk)
        text +=
            tr(" Shrunk run: bytes and bandwidths are of the shrunk shapes (the real-size "
               "bytes beside them); how fast the real sizes would move is not measured.");
    return text;
}

void TrafficWidget::setRun(const RunData& run) {
    run_ = run;
    real_ = run.isValid() ? realScale(*run.plan.scenario, run.run->shrink) : RealScale{};
    index_ = runIndexOf(run);
    table_->setHorizontalHeaderLabels(statHeaders(stats().shrunk));
    note_->setText(run.isValid() ? noteText(stats().shrunk) : noRunText());
    // An empty chart would push the note out of a short dock: the note first.
    plot_->setVisible(run.isValid());
    setAxisTitle(stats().shrunk);
    fillPlot();
    fillTable();
    fillSlowest();
}

// Without a run every figure would read "0 GB/s": the note says why the view
// is empty and how to fill it instead, and the table has no rows.
QString TrafficWidget::noRunText() {
    return tr(
        "No run yet: Run ▸ Run (Ctrl+R) runs the plan, File ▸ Open Run… (Ctrl+Shift+O) "
        "opens a saved one; this view then shows what each collective moved and how fast.");
}

// The bars are bandwidths of the shapes that ran: a shrunk run's say so on
// the chart itself. The plot is never shorter than its axis title (plus the
// rotated op names under it), which was clipped at both ends in the dock.
QString TrafficWidget::axisTitle() const {
    return axisTitle_->text();
}

void TrafficWidget::setAxisTitle(bool shrunk) {
    shrunk_ = shrunk;
    QString title = shrunk ? tr("Bandwidth in GB/s of the shrunk run (NCCL-tests, 1e9 B/s)")
                           : tr("Bandwidth in GB/s (NCCL-tests, 1e9 B/s)");
    if (logScale_) title += tr(", log scale");
    axisTitle_->setText(title);
    plot_->setMinimumHeight(kMinPlotHeight + kPlotMargins);
}

// Bandwidths a decade or more apart (a shrunk run's broadcasts next to its
// all-gathers: 0.013 against 0.00008 GB/s) on a logarithmic axis, so that
// every bar shows; the bars then rise from the axis's floor, a power of ten
// at least 3x below the smallest bar, and the axis title says so.
void TrafficWidget::setValueScale(double low, double top) {
    QCPAxis* axis = plot_->yAxis;
    logScale_ = low > 0 && top / low >= 10;
    const double floor = logScale_ ? std::pow(10.0, std::floor(std::log10(low / 3))) : 0;
    for (QCPBars* bars : {algBars_, busBars_}) bars->setBaseValue(floor);
    if (logScale_) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        axis->setNumberFormat(QStringLiteral("g"));
        axis->setRange(floor, top * 2);
    } else {
        axis->setScaleType(QCPAxis::stLinear);
        axis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        axis->setRange(0, top > 0 ? top * 1.25 : 1);
    }
    setAxisTitle(shrunk_);
}

void TrafficWidget::fillPlot() {
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    QVector<double> keysAlg, keysBus, alg, bus;
    double key = 0, top = 0, low = 0;  // low: the smallest bandwidth above zero
    auto addRow = [&](const TrafficRow& row) {
        keysAlg << key - 0.18;
        keysBus << key + 0.18;
        alg << row.algbw() / kGB;
        bus << row.busbw() / kGB;
        top = std::max({top, row.algbw() / kGB, row.busbw() / kGB});
        for (double v : {row.algbw() / kGB, row.busbw() / kGB})
            if (v > 0) low = low > 0 ? std::min(low, v) : v;
        ticker->addTick(key, row.key);
        key += 1;
    };
    for (const TrafficRow& row : stats().byOp) addRow(row);
    key += 0.5;  // a gap between the op bars and the mesh-dim bars
    for (const TrafficRow& row : stats().byDim) addRow(row);
    algBars_->setData(keysAlg, alg);
    busBars_->setData(keysBus, bus);
    plot_->xAxis->setTicker(ticker);
    lastKey_ = key - 1;
    lastLabel_ = stats().byDim.empty()
                     ? (stats().byOp.empty() ? QString() : stats().byOp.back().key)
                     : stats().byDim.back().key;
    fitKeyRange();
    setValueScale(low, top);
    plot_->replot();
}

// The key range ends where the last rotated name ends: (u − k)·W/(u − f) ≥
// L·cos(rotation) for the axis rect's width W, the last key k, the first f
// and the name's width L, solved for the range's right end u.
void TrafficWidget::fitKeyRange() {
    const double width = plot_->axisRect()->width();
    const double label = QFontMetrics(plot_->xAxis->tickLabelFont()).horizontalAdvance(lastLabel_) *
                             std::cos(kLabelRotation * M_PI / 180) +
                         8;
    double end = std::max(1.0, lastKey_ + 0.7);
    if (width > label + 1)
        end = std::max(end, (lastKey_ * width - kFirstKey * label) / (width - label));
    plot_->xAxis->setRange(kFirstKey, end);
}

void TrafficWidget::fillTable() {
    if (!run_.isValid()) {
        table_->setRowCount(0);
        return;
    }
    const int rows = static_cast<int>(stats().byOp.size() + stats().byDim.size()) + 1;
    table_->setRowCount(rows);
    int r = 0;
    for (const TrafficRow& row : stats().byOp) setRow(table_, r++, statCells(row, stats().shrunk));
    for (const TrafficRow& row : stats().byDim) setRow(table_, r++, statCells(row, stats().shrunk));
    setRow(table_, r, statCells(stats().total, stats().shrunk));
    QFont bold = table_->font();
    bold.setBold(true);
    for (int c = 0; c < table_->columnCount(); ++c)
        if (auto* item = table_->item(r, c)) item->setFont(bold);
    table_->resizeColumnsToContents();
    // Every row visible: the table is the figures' legend.
    table_->setFixedHeight(table_->horizontalHeader()->height() +
                           rows * table_->verticalHeader()->defaultSectionSize() + 4);
}

void TrafficWidget::fillSlowest() {
    slowest_->setRowCount(static_cast<int>(stats().slowest.size()));
    for (size_t i = 0; i < stats().slowest.size(); ++i) {
        const int position = stats().slowest[i];
        const RunStep& step = steps()[static_cast<size_t>(position)];
        const TraceEvent& e = run_.run->trace.events[static_cast<size_t>(step.events.front())];
        setRow(slowest_, static_cast<int>(i),
               {QString::number(position + 1), collectiveIdText(step.seq),
                QString::fromStdString(e.op), QString::fromStdString(e.label.phase),
                ranksText(e.groupRanks),
                collectiveBytesText(collectiveSize(step, run_.run->trace), e.label, &real_),
                QStringLiteral("%1 ms").arg(step.runUs() * 1e-3, 0, 'f', 3),
                QStringLiteral("%1 ms").arg(step.waitUs() * 1e-3, 0, 'f', 3),
                paramNamesText(e.label.params, *run_.plan.scenario)},
               {2, 3, 4, 8});
    }
    slowest_->resizeColumnsToContents();
}

QImage TrafficWidget::renderImage(QSize size) {
    return grabOffscreen(*this, size, [this] { plot_->replot(); });
}

QList<ViewShot> TrafficWidget::screenshots() const {
    if (!run_.isValid()) return {};
    return {ViewShot{{}, QSize(1600, 900), {}}};
}

}  // namespace hsdp
