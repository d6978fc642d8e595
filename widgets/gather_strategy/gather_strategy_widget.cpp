// SPDX-License-Identifier: Apache-2.0
#include "gather_strategy/gather_strategy_widget.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include "cost/gather_strategy_choice.h"
#include "derived/plan/plan_index.h"
#include "derived/run/plan_prediction.h"
#include "types/figures.h"
#include "view/offscreen_grab.h"

namespace hsdp {

namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

QString strategyName(GatherStrategy strategy) {
    const std::string_view name = gatherStrategyName(strategy);
    return QString::fromUtf8(name.data(), qsizetype(name.size()));
}

// The costing's outcome: the figures, or why there are none.
struct Costed {
    std::shared_ptr<const StrategyComparison> comparison;
    QString error;
};

Costed cost(const PlanResult& plan, int group, std::shared_ptr<const Cluster> cluster,
            std::stop_token stop = {}) {
    try {
        return {std::make_shared<const StrategyComparison>(compareStrategies(
                    *plan.scenario, *plan.plan, group, *cluster, std::move(stop))),
                {}};
    } catch (const std::exception& error) {
        return {nullptr, QString::fromUtf8(error.what())};
    }
}

// The rows of the table: a label and a strategy's figure as text.
struct Row {
    const char* label;
    QString (*text)(const StrategyFigures&);
    // A peak's bytes, said against the device's memory; null for other rows.
    int64_t (*peakBytes)(const StrategyFigures&) = nullptr;
};
const Row kRows[] = {
    {QT_TRANSLATE_NOOP("GatherStrategyWidget", "Received per rank, most"),
     [](const StrategyFigures& f) { return qs(humanBytes(double(f.maxReceived))); }},
    {QT_TRANSLATE_NOOP("GatherStrategyWidget", "Received per rank, mean"),
     [](const StrategyFigures& f) { return qs(humanBytes(f.meanReceived)); }},
    // This group's wire alone: not the step's critical path nor its sum
    // over collectives, which the CLI gives (a new user compared them).
    {QT_TRANSLATE_NOOP("GatherStrategyWidget",
                       "Predicted gather + update return, busiest rank, this group "
                       "(Newton–Schulz left out)"),
     [](const StrategyFigures& f) { return qs(durationText(f.seconds)); }},
    {QT_TRANSLATE_NOOP("GatherStrategyWidget", "Peak memory of the step"),
     [](const StrategyFigures& f) {
         return QStringLiteral("%1 (rank %2)")
             .arg(qs(humanBytes(double(f.peakBytes))))
             .arg(f.peakRank);
     },
     [](const StrategyFigures& f) { return f.peakBytes; }},
    {QT_TRANSLATE_NOOP("GatherStrategyWidget", "Peak with every gathered group on it"),
     [](const StrategyFigures& f) {
         return QStringLiteral("%1 (rank %2)")
             .arg(qs(humanBytes(double(f.everyGroupPeakBytes))))
             .arg(f.everyGroupPeakRank);
     },
     [](const StrategyFigures& f) { return f.everyGroupPeakBytes; }},
};

}  // namespace

namespace {

// Longer than an edit's re-plan and repaint on the 70B sample (about 60 ms).
constexpr int kSettleMilliseconds = 150;

}  // namespace

GatherStrategyWidget::GatherStrategyWidget(PlanSelection* selection, QWidget* parent)
    : QWidget(parent),
      selection_(selection),
      title_(new QLabel(this)),
      caption_(new QLabel(this)),
      table_(new QTableWidget(int(std::size(kRows)), 2, this)) {
    pool_.setMaxThreadCount(1);
    settle_.setSingleShot(true);
    settle_.setInterval(kSettleMilliseconds);
    connect(&settle_, &QTimer::timeout, this, [this] {
        settled_ = true;
        refresh();
        settled_ = false;
    });
    title_->setStyleSheet(QStringLiteral("font-weight: bold;"));
    title_->setWordWrap(true);
    caption_->setWordWrap(true);
    caption_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    caption_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QStringList rows;
    for (const Row& row : kRows) rows << tr(row.label);
    table_->setVerticalHeaderLabels(rows);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->addWidget(title_);
    layout->addWidget(table_);
    layout->addWidget(caption_);
    layout->addStretch(1);
    fitTableHeight();
    if (selection_)
        connect(selection_, &PlanSelection::changed, this, &GatherStrategyWidget::refresh);
    refresh();
}

GatherStrategyWidget::~GatherStrategyWidget() {
    pool_.waitForDone();
}

void GatherStrategyWidget::showPlan(const PlanResult& plan) {
    if (plan.plan != plan_.plan) {
        costed_.clear();  // positions and figures were that plan's
        jobs_.cancel();   // and the costing of the last one is not wanted any more
    }
    plan_ = plan;
    refresh();
}

std::shared_ptr<const Cluster> GatherStrategyWidget::cluster() const {
    if (plan_.prediction && plan_.prediction->cluster) return plan_.prediction->cluster;
    static const auto loopback = std::make_shared<const Cluster>(defaultStrategyCluster());
    return loopback;
}

GatherStrategyWidget::Key GatherStrategyWidget::keyFor(int group) const {
    return {plan_.plan.get(), group, cluster()->name};
}

void GatherStrategyWidget::refresh() {
    if (!plan_.isValid()) return display(std::nullopt, tr("No plan."));
    // The plan could not be costed on the chosen cluster (too large, say):
    // the Memory view says so, and a peak memory costed here on one group
    // would contradict it. Both give the prediction's own reason.
    if (plan_.prediction && !plan_.prediction->cost)
        return display(std::nullopt, tr("No prediction: %1").arg(plan_.prediction->error));
    const SelectionState state = selection_ ? selection_->stateFor(plan_) : SelectionState{};
    const int group = comparedGroup(*plan_.plan, *plan_.index, state);
    if (group < 0)
        return display(std::nullopt, tr("This plan gathers nothing: every param runs Newton–Schulz "
                                        "where it is, so there is no gather strategy to choose."));
    const Key key = keyFor(group);
    if (auto it = costed_.find(key); it != costed_.end()) return display(*it->second, {});
    // A tab behind others costs nothing: every what-if edit plans anew, and
    // the two cores are the planner's first. showEvent() comes back here.
    if (!isVisible())
        return display(std::nullopt, tr("Both strategies of group %1 are costed when this view "
                                        "is shown.")
                                         .arg(plan_.plan->groups[size_t(group)].id));
    display(std::nullopt, tr("Costing both strategies of group %1 on %2…")
                              .arg(plan_.plan->groups[size_t(group)].id)
                              .arg(qs(std::get<2>(key))));
    if (!settled_) return settle_.start();  // comes back here once the plan has stayed
    jobs_.startJob(
        pool_,
        [plan = plan_, group, cluster = cluster()](std::stop_token stop) {
            return cost(plan, group, cluster, std::move(stop));
        },
        [this, key](Costed costed) {
            if (std::get<0>(key) != plan_.plan.get()) return;  // another plan meanwhile
            if (!costed.comparison)
                return display(std::nullopt, tr("No prediction: %1").arg(costed.error));
            costed_[key] = costed.comparison;
            refresh();
        });
}

void GatherStrategyWidget::display(const std::optional<StrategyComparison>& comparison,
                                   const QString& message) {
    shown_ = comparison;
    table_->setVisible(bool(comparison));
    if (!comparison) {
        title_->setText(tr("Gather strategy"));
        caption_->setText(message);
        return;
    }
    const StrategyComparison& c = *comparison;
    const Group& group = plan_.plan->groups[size_t(c.group)];
    const size_t batches = group.batches.size();
    title_->setText(tr("Gather strategy of group %1 (%2, mesh %3): all-gather and "
                       "all-to-all side by side, at real shapes")
                        .arg(c.groupId)
                        .arg(batches == 1 ? tr("1 batch") : tr("%1 batches").arg(batches))
                        .arg(qs(group.mesh)));
    QStringList headers;
    for (GatherStrategy s : {GatherStrategy::AllGather, GatherStrategy::AllToAll})
        headers << (s == c.used ? tr("%1 (the plan's)").arg(strategyName(s)) : strategyName(s));
    table_->setHorizontalHeaderLabels(headers);
    for (size_t r = 0; r < std::size(kRows); ++r) {
        const StrategyFigures* figures[] = {&c.allGather, &c.allToAll};
        for (int column = 0; column < 2; ++column) {
            QString text = kRows[r].text(*figures[column]);
            // A peak over the device's memory is a step that cannot run: said in the cell.
            const int64_t device = cluster() ? cluster()->device.memoryBytes : 0;
            if (kRows[r].peakBytes && device > 0 && kRows[r].peakBytes(*figures[column]) > device)
                text += tr(": does not fit the device's %1").arg(qs(humanBytes(double(device))));
            auto* item = new QTableWidgetItem(text);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            QFont font = item->font();
            font.setBold(figures[column] ==
                         (c.used == GatherStrategy::AllToAll ? &c.allToAll : &c.allGather));
            item->setFont(font);
            table_->setItem(int(r), column, item);
        }
    }
    caption_->setText(caption());
    fitTableHeight();
}

// The table exactly as tall as its rows: no empty grid below them.
void GatherStrategyWidget::fitTableHeight() {
    const int row = table_->fontMetrics().height() + 8;
    table_->verticalHeader()->setDefaultSectionSize(row);
    table_->setFixedHeight(table_->horizontalHeader()->sizeHint().height() +
                           row * table_->rowCount() + 2 * table_->frameWidth());
}

void GatherStrategyWidget::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (!shown_) refresh();
}

void GatherStrategyWidget::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        fitTableHeight();
}

QString GatherStrategyWidget::caption() const {
    if (!shown_) return caption_->text();
    const StrategyComparison& c = *shown_;
    const QString used = strategyName(c.used);
    QString why = c.chosenByAuto
                      ? tr("The plan uses %1, options.gather_strategy \"auto\" weighed both: %2.")
                            .arg(used, qs(c.why))
                  : c.why.empty() ? tr("The plan uses %1.").arg(used)
                                  : tr("The plan uses %1, as %2 says.").arg(used, qs(c.why));
    return why + QLatin1Char(' ') +
           tr("Received: the bytes of this group's gathers and update returns a rank of its mesh "
              "takes off the wire. Times: the busiest rank's, predicted on %1 (Newton–Schulz, "
              "the same under both, left out). Peak: the whole step's, with this group on "
              "each strategy.")
               .arg(qs(c.cluster));
}

QList<ViewShot> GatherStrategyWidget::screenshots() const {
    if (!plan_.isValid()) return {};
    return {ViewShot{{}, QSize(900, 420), {}}};
}

QImage GatherStrategyWidget::picture(const QSize& size, const QString&) {
    if (plan_.isValid() && !shown_) {
        const int group = comparedGroup(
            *plan_.plan, *plan_.index, selection_ ? selection_->stateFor(plan_) : SelectionState{});
        if (group >= 0) {
            Costed costed = cost(plan_, group, cluster());
            if (costed.comparison) {
                costed_[keyFor(group)] = costed.comparison;
                refresh();
            }
        }
    }
    return grabOffscreen(*this, size);
}

}  // namespace hsdp
