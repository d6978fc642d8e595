// SPDX-License-Identifier: Apache-2.0
#include "steps/step_widget.h"

#include <QApplication>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QShortcut>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "derived/run/run_status_text.h"
#include "painting/trace_palette.h"
#include "run/shrink.h"
#include "types/mesh.h"
#include "view/offscreen_grab.h"

namespace hsdp {

namespace {

QToolButton* navButton(const QString& text, const QString& tip, QWidget* parent) {
    auto* button = new QToolButton(parent);
    button->setText(text);
    button->setToolTip(tip);
    button->setMinimumWidth(44);
    return button;
}

QString ms(double us) {
    return QStringLiteral("%1 ms").arg(us * 1e-3, 0, 'f', 3);
}

}  // namespace

StepWidget::StepWidget(PlanSelection* selection, QWidget* parent)
    : QWidget(parent),
      selection_(selection),
      play_(navButton(tr("Play"), tr("Play / pause (Space)"), this)),
      speed_(new QDoubleSpinBox(this)),
      position_(new QLabel(this)),
      badge_(new QLabel(this)),
      faultBadge_(new QLabel(tr("✗ wrong result"), this)),
      headline_(new QLabel(this)),
      why_(new QLabel(this)),
      fault_(new QLabel(this)),
      nextWrong_(navButton(tr("Next wrong ▶"),
                           tr("The next collective whose result verification found wrong"), this)),
      participants_(new QTreeWidget(this)),
      timer_(new QTimer(this)) {
    auto* firstButton = navButton(tr("First"), tr("First collective (Alt+Home)"), this);
    auto* previousButton =
        navButton(tr("◀ Prev"), tr("Previous collective (Alt+Left, PgUp)"), this);
    auto* nextButton = navButton(tr("Next ▶"), tr("Next collective (Alt+Right, PgDn)"), this);
    auto* lastButton = navButton(tr("Last"), tr("Last collective (Alt+End)"), this);
    play_->setCheckable(true);
    speed_->setRange(0.25, 60);
    speed_->setValue(2);
    speed_->setSuffix(tr(" steps/s"));
    speed_->setDecimals(2);
    auto* bar = new QHBoxLayout;
    for (QWidget* w : std::initializer_list<QWidget*>{firstButton, previousButton, play_,
                                                      nextButton, lastButton, nextWrong_, speed_})
        bar->addWidget(w);
    bar->addStretch(1);
    QFont bigger = position_->font();
    bigger.setBold(true);
    position_->setFont(bigger);
    bar->addWidget(position_);
    auto* title = new QHBoxLayout;
    badge_->setAlignment(Qt::AlignCenter);
    title->addWidget(badge_);
    faultBadge_->setObjectName(QStringLiteral("faultBadge"));
    faultBadge_->setAlignment(Qt::AlignCenter);
    faultBadge_->setStyleSheet(QStringLiteral("background: %1; color: white; border-radius: 4px; "
                                              "padding: 2px 8px; font-weight: bold;")
                                   .arg(traceFaultColour().name()));
    faultBadge_->setToolTip(tr("Verification found the result of this collective wrong"));
    faultBadge_->hide();
    title->addWidget(faultBadge_);
    headline_->setWordWrap(true);
    headline_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    title->addWidget(headline_, 1);
    why_->setWordWrap(true);
    why_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    why_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    fault_->setObjectName(QStringLiteral("fault"));
    fault_->setWordWrap(true);
    fault_->setTextFormat(Qt::PlainText);
    fault_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QColor tint = traceFaultColour();
    tint.setAlpha(24);
    fault_->setStyleSheet(
        QStringLiteral("QLabel { color: %1; background: %2; border: 1px solid %1; "
                       "border-radius: 4px; padding: 3px 6px; }")
            .arg(traceFaultColour().name(), tint.name(QColor::HexArgb)));
    fault_->hide();
    participants_->setColumnCount(5);
    participants_->setHeaderLabels(
        {tr("rank"), tr("sent"), tr("arrived"), tr("waited"), tr("finished")});
    participants_->header()->setStretchLastSection(true);
    participants_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    participants_->setSelectionMode(QAbstractItemView::NoSelection);
    participants_->setFocusPolicy(Qt::NoFocus);
    participants_->setUniformRowHeights(true);  // a thousand lines lay out at once
    participants_->setRootIsDecorated(false);
    participants_->setExpandsOnDoubleClick(true);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addLayout(title);
    layout->addWidget(why_);
    layout->addWidget(fault_);
    layout->addWidget(participants_, 1);
    timer_->setInterval(500);
    connect(firstButton, &QToolButton::clicked, this, &StepWidget::first);
    connect(previousButton, &QToolButton::clicked, this, &StepWidget::previous);
    connect(nextButton, &QToolButton::clicked, this, &StepWidget::next);
    connect(lastButton, &QToolButton::clicked, this, &StepWidget::last);
    connect(nextWrong_, &QToolButton::clicked, this, &StepWidget::nextWrong);
    connect(play_, &QToolButton::toggled, this, &StepWidget::setPlaying);
    connect(speed_, &QDoubleSpinBox::valueChanged, this, &StepWidget::setSpeed);
    connect(timer_, &QTimer::timeout, this, &StepWidget::onTick);
    if (selection_)
        connect(selection_, &PlanSelection::changed, this, &StepWidget::onSelectionChanged);
    addShortcuts();
    setFocusPolicy(Qt::StrongFocus);
    showStep();
}

void StepWidget::addShortcuts() {
    auto add = [this](QKeyCombination key, Qt::ShortcutContext context,
                      void (StepWidget::*slot)()) {
        auto* shortcut = new QShortcut(QKeySequence(key), this);
        shortcut->setContext(context);
        connect(shortcut, &QShortcut::activated, this, slot);
    };
    add(Qt::ALT | Qt::Key_Left, Qt::WindowShortcut, &StepWidget::previous);
    add(Qt::ALT | Qt::Key_Right, Qt::WindowShortcut, &StepWidget::next);
    add(Qt::ALT | Qt::Key_Home, Qt::WindowShortcut, &StepWidget::first);
    add(Qt::ALT | Qt::Key_End, Qt::WindowShortcut, &StepWidget::last);
    add(QKeyCombination(Qt::Key_PageUp), Qt::WidgetWithChildrenShortcut, &StepWidget::previous);
    add(QKeyCombination(Qt::Key_PageDown), Qt::WidgetWithChildrenShortcut, &StepWidget::next);
    add(QKeyCombination(Qt::Key_Home), Qt::WidgetWithChildrenShortcut, &StepWidget::first);
    add(QKeyCombination(Qt::Key_End), Qt::WidgetWithChildrenShortcut, &StepWidget::last);
    auto* space = new QShortcut(QKeySequence(Qt::Key_Space), this);
    space->setContext(Qt::WidgetWithChildrenShortcut);
    connect(space, &QShortcut::activated, play_, &QToolButton::toggle);
}

void StepWidget::setRun(const RunData& run) {
    setPlaying(false);
    run_ = run;
    real_ = run.isValid() ? realScale(*run.plan.scenario, run.run->shrink) : RealScale{};
    index_ = runIndexOf(run);
    mesh_.reset();
    if (run.isValid())
        for (const Mesh& m : run.plan.scenario->meshes)
            if (m.size() == run.run->worldSize && !mesh_) mesh_ = std::make_shared<const Mesh>(m);
    grouping_ = defaultRankGrouping(run.isValid() ? run.run->worldSize : 0, mesh_.get());
    current_ = -1;
    onSelectionChanged();
    if (current_ < 0) showStep();
}

QString StepWidget::positionText() const {
    // "step" is the CLI's word for a schedule entry: the walk counts collectives.
    if (steps().empty()) return tr("no collectives");
    if (current_ < 0 && !faults().empty())
        return tr("%1 collectives, %2 with a wrong result")
            .arg(groupedNumber(stepCount()), groupedNumber(qint64(faults().size())));
    if (current_ < 0) return tr("%1 collectives").arg(groupedNumber(stepCount()));
    // The position in this walk, and the collective's id everywhere else.
    // Named on its group, as the run's errors and check-job name it: the
    // run-wide seq beside it (a "#3" of each read as one collective).
    const RunStep& step = steps()[size_t(current_)];
    return tr("%1 of %2 collectives · %3 (%4)")
        .arg(groupedNumber(current_ + 1), groupedNumber(stepCount()),
             QString::fromStdString(collectiveName(step, run_.run->trace)),
             collectiveIdText(step.seq));
}

void StepWidget::setStep(int step) {
    if (steps().empty()) return;
    step = std::clamp(step, 0, stepCount() - 1);
    current_ = step;
    const RunStep& s = steps()[static_cast<size_t>(step)];
    const TraceEvent& e = run_.run->trace.events[static_cast<size_t>(s.events.front())];
    if (selection_) selection_->selectCollective(s.seq, e.groupRanks, e.label.params, run_.plan);
    showStep();
}

bool StepWidget::runFailed() const {
    return run_.isValid() && !run_.run->error.empty() && !run_.run->cancelled;
}

void StepWidget::nextWrong() {
    const StepFaults& wrong = faults();
    if (wrong.empty() && runFailed()) return setStep(stepCount() - 1);  // where it stopped
    if (wrong.empty()) return;
    for (int i = 1; i <= stepCount(); ++i) {
        const int step = (current_ + i) % stepCount();  // current_ >= -1
        if (wrong.count(steps()[size_t(step)].seq)) return setStep(step);
    }
}

void StepWidget::onSelectionChanged() {
    if (!selection_ || selection_->collective() < 0) return;
    const int step = stepOfSeq(steps(), selection_->collective());
    if (step < 0 || step == current_) return;
    current_ = step;
    showStep();
}

bool StepWidget::isPlaying() const {
    return timer_->isActive();
}

void StepWidget::setSpeed(double stepsPerSecond) {
    if (speed_->value() != stepsPerSecond) speed_->setValue(stepsPerSecond);
    timer_->setInterval(static_cast<int>(1000 / std::max(0.25, stepsPerSecond)));
}

void StepWidget::setPlaying(bool playing) {
    if (playing && steps().empty()) playing = false;
    if (playing) {
        if (current_ >= stepCount() - 1) setStep(0);
        timer_->start();
    } else {
        timer_->stop();
    }
    if (play_->isChecked() != playing) play_->setChecked(playing);
    play_->setText(playing ? tr("Pause") : tr("Play"));
}

void StepWidget::onTick() {
    if (current_ >= stepCount() - 1) {
        setPlaying(false);
        return;
    }
    next();
}

void StepWidget::showStep() {
    position_->setText(positionText());
    nextWrong_->setVisible(!faults().empty() || runFailed());
    if (current_ < 0 || !run_.isValid()) {
        caption_ = {};
        badge_->hide();
        faultBadge_->hide();
        fault_->hide();
        headline_->setText(steps().empty() ? tr("No run yet.")
                                           : tr("Press Next (Alt+Right) to walk the run's %1 "
                                                "collectives one by one.")
                                                 .arg(stepCount()));
        why_->clear();
        participants_->clear();
        return;
    }
    const RunStep& step = steps()[static_cast<size_t>(current_)];
    const auto wrong = faults().find(step.seq);
    caption_ = stepCaption(step, run_.run->trace, *run_.plan.scenario, *run_.plan.plan, &real_,
                           wrong == faults().end() ? nullptr : &wrong->second);
    const TraceEvent& e = run_.run->trace.events[static_cast<size_t>(step.events.front())];
    const QColor colour = tracePhaseColour(e.label.phase);
    badge_->setText(QString::fromStdString(e.label.phase));
    badge_->setStyleSheet(QStringLiteral("background: %1; color: white; border-radius: 4px; "
                                         "padding: 2px 8px; font-weight: bold;")
                              .arg(colour.name()));
    badge_->show();
    headline_->setText(QStringLiteral("<b>%1</b>").arg(caption_.headline.toHtmlEscaped()));
    why_->setText(caption_.why);
    // A failed run's last step is where it stopped: said there, not a
    // success story of the collectives before the failure. The step itself
    // completed: its badge says the run stopped after it, not that it failed.
    faultBadge_->setText(caption_.fault.isEmpty() ? tr("✗ run stopped after this")
                                                  : tr("✗ wrong result"));
    if (runFailed() && current_ == stepCount() - 1)
        caption_.fault += (caption_.fault.isEmpty() ? QString() : QStringLiteral("\n")) +
                          tr("The run stopped after this, its last recorded collective: %1")
                              .arg(QString::fromStdString(run_.run->error));
    faultBadge_->setVisible(!caption_.fault.isEmpty());
    fault_->setText(caption_.fault);
    fault_->setVisible(!caption_.fault.isEmpty());
    fillParticipants(step);
}

void StepWidget::setGrouping(const RankGrouping& grouping) {
    grouping_ = grouping;
    showStep();
}

void StepWidget::addParticipant(QTreeWidget* tree, QTreeWidgetItem* parent, const RunStep& step,
                                size_t i) {
    const TraceEvent& e = run_.run->trace.events[static_cast<size_t>(step.events[i])];
    const QStringList cells{QString::number(e.rank),
                            collectiveBytesText(static_cast<double>(e.bytes), e.label, &real_),
                            ms(e.startUs), ms(step.readyUs - e.startUs), ms(e.endUs)};
    auto* item = parent ? new QTreeWidgetItem(parent, cells) : new QTreeWidgetItem(tree, cells);
    // A rank where verification found the step's result wrong.
    QStringList wrong;
    for (const StepFault& f : caption_.faults)
        if (std::binary_search(f.ranks.begin(), f.ranks.end(), e.rank)) wrong << f.name;
    if (wrong.isEmpty()) return;
    item->setText(0, tr("%1 ✗").arg(e.rank));
    item->setForeground(0, traceFaultColour());
    item->setToolTip(0, tr("Verification found %1 wrong on rank %2")
                            .arg(wrong.join(QStringLiteral(", ")))
                            .arg(e.rank));
}

// A folded group's line: its ranks' total sent, first to last arrival, the
// longest wait, the last finish.
void StepWidget::addGroup(const RankGroup& group, const RunStep& step) {
    double sent = 0, first = 1e300, last = -1e300, finished = -1e300;
    const TraceEvent* any = nullptr;
    std::vector<int> ranks;
    for (int i : group.members) {
        const TraceEvent& e = run_.run->trace.events[static_cast<size_t>(step.events[size_t(i)])];
        any = &e;
        ranks.push_back(e.rank);
        sent += static_cast<double>(e.bytes);
        first = std::min(first, e.startUs);
        last = std::max(last, e.startUs);
        finished = std::max(finished, e.endUs);
    }
    if (!any) return;
    auto* item = new QTreeWidgetItem(
        participants_, {tr("%1 · %2 ranks").arg(group.title).arg(group.members.size()),
                        collectiveBytesText(sent, any->label, &real_, tr(" in all")),
                        QStringLiteral("%1 – %2").arg(ms(first), ms(last)),
                        ms(step.readyUs - first), ms(finished)});
    item->setToolTip(0, rankRunsText(ranks));
    QFont bold = item->font(0);
    bold.setBold(true);
    item->setFont(0, bold);
    for (int i : group.members) addParticipant(participants_, item, step, size_t(i));
}

void StepWidget::fillParticipants(const RunStep& step) {
    participants_->clear();
    const bool grouped = static_cast<int>(step.ranks.size()) > kGroupRanksAbove;
    RankGroupingContext context;
    context.mesh = mesh_.get();
    if (selection_) context.selectedRanks = selection_->ranks();
    const std::vector<RankGroup> groups =
        grouped ? groupRanks(step.ranks, grouping_, context) : std::vector<RankGroup>{};
    participants_->setRootIsDecorated(!groups.empty());
    if (groups.empty())
        for (size_t i = 0; i < step.events.size(); ++i)
            addParticipant(participants_, nullptr, step, i);
    for (const RankGroup& group : groups) addGroup(group, step);  // folded: one line each
    for (int c = 0; c < participants_->columnCount(); ++c) participants_->resizeColumnToContents(c);
}

QImage StepWidget::renderImage(QSize size) {
    return grabOffscreen(*this, size);
}

// The first step, a quarter and half-way through, the last: taken from the
// last to the first, so the selection is left on the first step's
// collective (the buffer layout's screenshot, after this one, draws it).
QList<ViewShot> StepWidget::screenshots() const {
    const int count = stepCount();
    if (count <= 0) return {};
    std::vector<int> chosen = {0, count / 4, count / 2, count - 1};
    // A run with a wrong result: its first wrong step too, where the fault shows.
    for (int step = 0; step < count && !faults().empty(); ++step)
        if (faults().count(steps()[size_t(step)].seq)) {
            chosen.push_back(step);
            break;
        }
    std::sort(chosen.begin(), chosen.end());
    chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
    QList<ViewShot> shots;
    for (auto step = chosen.rbegin(); step != chosen.rend(); ++step)
        shots << ViewShot{QStringLiteral("step-%1.png").arg(*step + 1), QSize(1200, 420),
                          QString::number(*step)};
    return shots;
}

QImage StepWidget::picture(const QSize& size, const QString& part) {
    if (!part.isEmpty()) setStep(part.toInt());
    // The captions wrap: a long fault text grows the picture instead of
    // being cut at its bottom (with room left for the participants' first rows).
    const int captions = layout()->totalMinimumHeightForWidth(size.width());
    const int rows =
        participants_->header()->sizeHint().height() + 3 * participants_->fontMetrics().height();
    return renderImage(QSize(size.width(), std::max(size.height(), captions + rows)));
}

}  // namespace hsdp
