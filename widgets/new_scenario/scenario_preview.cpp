// SPDX-License-Identifier: Apache-2.0
#include "new_scenario/scenario_preview.h"

#include <QLabel>
#include <QSpinBox>

#include "derived/plan/plan_index.h"
#include "derived/plan/plan_result.h"
#include "derived/run/plan_prediction.h"
#include "derived/run/run_status_text.h"

namespace hsdp {

ScenarioPreview::ScenarioPreview(QWidget* parent) : QScrollArea(parent), label_(new QLabel(this)) {
    pool_.setMaxThreadCount(1);
    label_->setWordWrap(true);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    setWidget(label_);
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setMinimumHeight(130);
}

ScenarioPreview::~ScenarioPreview() {
    pool_.waitForDone();
}

QString ScenarioPreview::planSummary(const PlanResult& result) {
    int64_t numel = 0;
    for (const ParamSpec& p : result.scenario->params) numel += p.numel();
    const int errors = diagnosticCount(result, Severity::Error);
    const int warnings = diagnosticCount(result, Severity::Warning);
    const QString outOfMemory = outOfMemoryStatusText(result.prediction.get());
    const QString predicted = predictionStatusText(result.prediction.get());
    QString prediction;
    if (!predicted.isEmpty())
        prediction = QStringLiteral("<br>") +
                     (outOfMemory.isEmpty()
                          ? predicted.toHtmlEscaped()
                          : QStringLiteral("<span style='color:#b00020'>%1</span> · %2")
                                .arg(outOfMemory.toHtmlEscaped(), predicted.toHtmlEscaped()));
    return QObject::tr(
               "<b>%1</b><br>%2 parameters, %3 elements · world %4 · %5 groups, %6 "
               "batches<br>%7 %8, %9 %10")
               .arg(QString::fromStdString(result.scenario->name).toHtmlEscaped())
               .arg(result.scenario->params.size())
               .arg(groupedNumber(numel))
               .arg(result.plan->worldSize)
               .arg(result.plan->groups.size())
               .arg(result.plan->schedule.size())
               .arg(errors)
               .arg(errors == 1 ? QObject::tr("error") : QObject::tr("errors"))
               .arg(warnings)
               .arg(warnings == 1 ? QObject::tr("warning") : QObject::tr("warnings")) +
           prediction;
}

void ScenarioPreview::plan(std::shared_ptr<const Json> document, const QString& notes) {
    ++generation_;
    label_->setStyleSheet(QString());
    label_->setText(tr("planning…"));
    jobs_.startJob(
        pool_,
        // A newer document stops this one's prediction (JobTracker's stop token).
        [document, cluster = cluster_](std::stop_token stop) -> QString {
            try {
                PlanResult result = computePlanResult(document, QString());
                result.prediction = predictPlan(result, cluster, std::move(stop));
                return planSummary(result);
            } catch (const std::exception& error) {
                return QStringLiteral("!") + QString::fromStdString(error.what());
            }
        },
        [this, generation = generation_, notes](const QString& summary) {
            if (generation != generation_) return;
            if (summary.startsWith(QLatin1Char('!'))) return showError(summary.mid(1));
            label_->setText(summary + notes);
            emit ready(true);
        });
}

void ScenarioPreview::showError(const QString& message) {
    ++generation_;
    label_->setStyleSheet(QStringLiteral("color: #b00020"));
    label_->setText(message.toHtmlEscaped());
    emit ready(false);
}

QString ScenarioPreview::text() const {
    return label_->text();
}

QSpinBox* layoutDegreeBox(QWidget* parent, int value) {
    auto* box = new QSpinBox(parent);
    box->setRange(1, 65536);
    box->setValue(value);
    return box;
}

}  // namespace hsdp
