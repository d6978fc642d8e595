#include "views/traffic_view.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include "models/step_caption.h"
#include "run/shrink.h"

namespace hsdp {

namespace {

const QColor kAlgColour(0x4c, 0x78, 0xa8);
const QColor kBusColour(0xf5, 0x85, 0x18);
constexpr double kMiB = 1024.0 * 1024.0;

QString rateText(double bytesPerSecond) {
    return QString::fromStdString(humanBytes(bytesPerSecond)) + QStringLiteral("/s");
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

QStringList statCells(const TrafficRow& row) {
    return {row.key,
            QString::number(row.collectives),
            QString::fromStdString(humanBytes(static_cast<double>(row.wireBytes))),
            QString::fromStdString(humanBytes(row.sizeBytes)),
            QStringLiteral("%1 ms").arg(row.seconds * 1e3, 0, 'f', 2),
            rateText(row.algbw()),
            rateText(row.busbw())};
}

}  // namespace

TrafficView::TrafficView(PlanSelection* selection, QWidget* parent)
    : QWidget(parent),
      selection_(selection),
      plot_(new QCustomPlot(this)),
      table_(makeTable({tr("op / mesh dim"), tr("collectives"), tr("sent (wire)"), tr("size S"),
                        tr("time t"), tr("algbw S/t"), tr("busbw")},
                       this)),
      slowest_(makeTable({tr("step"), tr("seq"), tr("op"), tr("phase"), tr("ranks"), tr("size S"),
                          tr("time t"), tr("waited"), tr("params")},
                         this)) {
    plot_->setMinimumHeight(120);
    table_->horizontalHeader()->setStretchLastSection(false);
    algBars_ = makeBars(plot_, kAlgColour, tr("algbw = S / t"));
    busBars_ = makeBars(plot_, kBusColour, tr("busbw = algbw × factor"));
    plot_->legend->setVisible(true);
    plot_->legend->setFont(QFont(font().family(), 8));
    plot_->legend->setBrush(QColor(255, 255, 255, 220));
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    plot_->yAxis->setLabel(tr("MiB/s"));
    plot_->xAxis->setTickLabelRotation(20);
    auto* note = new QLabel(
        tr("NCCL-tests conventions. S = the collective's size (the whole gathered or "
           "broadcast buffer), recovered from the trace's on-wire bytes: the participants "
           "send (n−1)·S together (all_reduce: 2(n−1)·S). t = last arrival to last finish. "
           "busbw factor: all_reduce 2(n−1)/n, all_gather / reduce_scatter / all_to_all "
           "(n−1)/n, broadcast 1."),
        this);
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
        if (!selection_ || row < 0 || static_cast<size_t>(row) >= stats_.slowest.size()) return;
        const RunStep& step = steps_[static_cast<size_t>(stats_.slowest[static_cast<size_t>(row)])];
        const TraceEvent& e = run_.run->trace.events[static_cast<size_t>(step.events.front())];
        selection_->selectCollective(step.seq, e.groupRanks, e.label.params, run_.plan);
    });
}

void TrafficView::setRun(const RunData& run) {
    run_ = run;
    steps_ = run.isValid() ? runSteps(run.run->trace) : std::vector<RunStep>{};
    stats_ = run.isValid() ? trafficStats(steps_, run.run->trace, run.plan.scenario.get())
                           : TrafficStats{};
    fillPlot();
    fillTable();
    fillSlowest();
}

void TrafficView::fillPlot() {
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    QVector<double> keysAlg, keysBus, alg, bus;
    double key = 0, top = 0;
    auto addRow = [&](const TrafficRow& row) {
        keysAlg << key - 0.18;
        keysBus << key + 0.18;
        alg << row.algbw() / kMiB;
        bus << row.busbw() / kMiB;
        top = std::max({top, row.algbw() / kMiB, row.busbw() / kMiB});
        ticker->addTick(key, row.key);
        key += 1;
    };
    for (const TrafficRow& row : stats_.byOp) addRow(row);
    key += 0.5;  // a gap between the op bars and the mesh-dim bars
    for (const TrafficRow& row : stats_.byDim) addRow(row);
    algBars_->setData(keysAlg, alg);
    busBars_->setData(keysBus, bus);
    plot_->xAxis->setTicker(ticker);
    plot_->xAxis->setRange(-0.7, std::max(1.0, key - 0.3));
    plot_->yAxis->setRange(0, top > 0 ? top * 1.25 : 1);
    plot_->replot();
}

void TrafficView::fillTable() {
    const int rows = static_cast<int>(stats_.byOp.size() + stats_.byDim.size()) + 1;
    table_->setRowCount(rows);
    int r = 0;
    for (const TrafficRow& row : stats_.byOp) setRow(table_, r++, statCells(row));
    for (const TrafficRow& row : stats_.byDim) setRow(table_, r++, statCells(row));
    setRow(table_, r, statCells(stats_.total));
    QFont bold = table_->font();
    bold.setBold(true);
    for (int c = 0; c < table_->columnCount(); ++c)
        if (auto* item = table_->item(r, c)) item->setFont(bold);
    table_->resizeColumnsToContents();
    // Every row visible: the table is the figures' legend.
    table_->setFixedHeight(table_->horizontalHeader()->height() +
                           rows * table_->verticalHeader()->defaultSectionSize() + 4);
}

void TrafficView::fillSlowest() {
    slowest_->setRowCount(static_cast<int>(stats_.slowest.size()));
    for (size_t i = 0; i < stats_.slowest.size(); ++i) {
        const int position = stats_.slowest[i];
        const RunStep& step = steps_[static_cast<size_t>(position)];
        const TraceEvent& e = run_.run->trace.events[static_cast<size_t>(step.events.front())];
        setRow(
            slowest_, static_cast<int>(i),
            {QString::number(position + 1), QString::number(step.seq), QString::fromStdString(e.op),
             QString::fromStdString(e.label.phase), ranksText(e.groupRanks),
             QString::fromStdString(humanBytes(collectiveSize(step, run_.run->trace))),
             QStringLiteral("%1 ms").arg(step.runUs() * 1e-3, 0, 'f', 3),
             QStringLiteral("%1 ms").arg(step.waitUs() * 1e-3, 0, 'f', 3),
             paramNamesText(e.label.params, *run_.plan.scenario)},
            {2, 3, 4, 8});
    }
    slowest_->resizeColumnsToContents();
}

QImage TrafficView::renderImage(QSize size) {
    const bool wasVisible = isVisible();
    if (!wasVisible) setAttribute(Qt::WA_DontShowOnScreen);
    resize(size);
    show();
    QApplication::processEvents();
    plot_->replot();
    QImage image = grab().toImage();
    if (!wasVisible) hide();
    return image;
}

}  // namespace hsdp
