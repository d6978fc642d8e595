// SPDX-License-Identifier: Apache-2.0
#include "steps/step_widget.h"

#include <QApplication>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QShortcut>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include "run/shrink.h"
#include "runs/run_status_text.h"
#include "studio/offscreen_grab.h"
#include "trace/trace_palette.h"

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
      headline_(new QLabel(this)),
      why_(new QLabel(this)),
      participants_(new QTableWidget(this)),
      timer_(new QTimer(this)) {
    auto* firstButton = navButton(tr("First"), tr("First step (Alt+Home)"), this);
    auto* previousButton = navButton(tr("◀ Prev"), tr("Previous step (Alt+Left, PgUp)"), this);
    auto* nextButton = navButton(tr("Next ▶"), tr("Next step (Alt+Right, PgDn)"), this);
    auto* lastButton = navButton(tr("Last"), tr("Last step (Alt+End)"), this);
    play_->setCheckable(true);
    speed_->setRange(0.25, 60);
    speed_->setValue(2);
    speed_->setSuffix(tr(" steps/s"));
    speed_->setDecimals(2);
    auto* bar = new QHBoxLayout;
    for (QWidget* w : std::initializer_list<QWidget*>{firstButton, previousButton, play_,
                                                      nextButton, lastButton, speed_})
        bar->addWidget(w);
    bar->addStretch(1);
    QFont bigger = position_->font();
    bigger.setBold(true);
    position_->setFont(bigger);
    bar->addWidget(position_);
    auto* title = new QHBoxLayout;
    badge_->setAlignment(Qt::AlignCenter);
    title->addWidget(badge_);
    headline_->setWordWrap(true);
    headline_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    title->addWidget(headline_, 1);
    why_->setWordWrap(true);
    why_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    why_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    participants_->setColumnCount(5);
    participants_->setHorizontalHeaderLabels(
        {tr("rank"), tr("sent"), tr("arrived"), tr("waited"), tr("finished")});
    participants_->verticalHeader()->hide();
    participants_->horizontalHeader()->setStretchLastSection(true);
    participants_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    participants_->setSelectionMode(QAbstractItemView::NoSelection);
    participants_->setFocusPolicy(Qt::NoFocus);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addLayout(title);
    layout->addWidget(why_);
    layout->addWidget(participants_, 1);
    timer_->setInterval(500);
    connect(firstButton, &QToolButton::clicked, this, &StepWidget::first);
    connect(previousButton, &QToolButton::clicked, this, &StepWidget::previous);
    connect(nextButton, &QToolButton::clicked, this, &StepWidget::next);
    connect(lastButton, &QToolButton::clicked, this, &StepWidget::last);
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
    current_ = -1;
    onSelectionChanged();
    if (current_ < 0) showStep();
}

QString StepWidget::positionText() const {
    if (steps().empty()) return tr("no steps");
    if (current_ < 0) return tr("%1 steps").arg(stepCount());
    // The position in this walk, and the collective's id everywhere else.
    return tr("step %1 of %2 · collective %3")
        .arg(groupedNumber(current_ + 1), groupedNumber(stepCount()),
             collectiveIdText(steps()[size_t(current_)].seq));
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
    if (current_ < 0 || !run_.isValid()) {
        caption_ = {};
        badge_->hide();
        headline_->setText(steps().empty() ? tr("No run yet.")
                                           : tr("Press Next (Alt+Right) to walk the run's %1 "
                                                "collectives one by one.")
                                                 .arg(stepCount()));
        why_->clear();
        participants_->setRowCount(0);
        return;
    }
    const RunStep& step = steps()[static_cast<size_t>(current_)];
    caption_ = stepCaption(step, run_.run->trace, *run_.plan.scenario, *run_.plan.plan, &real_);
    const TraceEvent& e = run_.run->trace.events[static_cast<size_t>(step.events.front())];
    const QColor colour = tracePhaseColour(e.label.phase);
    badge_->setText(QString::fromStdString(e.label.phase));
    badge_->setStyleSheet(QStringLiteral("background: %1; color: white; border-radius: 4px; "
                                         "padding: 2px 8px; font-weight: bold;")
                              .arg(colour.name()));
    badge_->show();
    headline_->setText(QStringLiteral("<b>%1</b>").arg(caption_.headline.toHtmlEscaped()));
    why_->setText(caption_.why);
    fillParticipants(step);
}

void StepWidget::fillParticipants(const RunStep& step) {
    participants_->setRowCount(static_cast<int>(step.events.size()));
    for (size_t i = 0; i < step.events.size(); ++i) {
        const TraceEvent& e = run_.run->trace.events[static_cast<size_t>(step.events[i])];
        const QStringList cells{QString::number(e.rank),
                                collectiveBytesText(static_cast<double>(e.bytes), e.label, &real_),
                                ms(e.startUs), ms(step.readyUs - e.startUs), ms(e.endUs)};
        for (int c = 0; c < cells.size(); ++c)
            participants_->setItem(static_cast<int>(i), c, new QTableWidgetItem(cells[c]));
    }
    participants_->resizeColumnsToContents();
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
    chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
    QList<ViewShot> shots;
    for (auto step = chosen.rbegin(); step != chosen.rend(); ++step)
        shots << ViewShot{QStringLiteral("step-%1.png").arg(*step + 1), QSize(1200, 420),
                          QString::number(*step)};
    return shots;
}

QImage StepWidget::picture(const QSize& size, const QString& part) {
    if (!part.isEmpty()) setStep(part.toInt());
    return renderImage(size);
}

}  // namespace hsdp
