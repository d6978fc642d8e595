// SPDX-License-Identifier: Apache-2.0
// The "What changed" model side: computePlanChange's rows against the
// engine's PlanDiff (every expectation read off the diff or the plans, never
// typed in), QAbstractItemModelTester on PlanDiffModel, and the PlanDiffTracker's
// two modes (since the last change, against a file) off the GUI thread.
#include <QAbstractItemModelTester>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <map>

#include "derived/plan/plan_index.h"
#include "plan_diff/plan_diff_model.h"
#include "plan_diff/plan_diff_tracker.h"
#include "samples.h"
#include "scenario/reader.h"

using namespace hsdp;
using hsdp::testing::sample;
using hsdp::testing::sampleText;

namespace {

PlanResult planOf(const QByteArray& json, const QString& path = QStringLiteral("memory.json")) {
    return computePlanResult(readScenario(json.toStdString()), path);
}

// Edits that move things: a bigger replicate dim (owners spread), a split
// into batches, a param fixed or broken (diagnostics come and go).
struct Variant {
    const char* sample;
    QByteArray from;
    QByteArray to;
};

const std::vector<Variant>& variants() {
    static const std::vector<Variant> all = {
        {"teaching_2x2.json", "\"shape\": [2, 2]", "\"shape\": [4, 2]"},
        {"llama3_70b_hsdp_tp_2x4x4.json", "\"max_batch_numel\": 2000000000",
         "\"max_batch_numel\": 900000000"},
        // A rejected param fixed (an error disappears), a valid one broken (one appears).
        {"diagnostics_tour.json",
         "\"bias.bad_dim\", \"shape\": [8], \"dtype\": \"f32\", \"mesh\": \"main\", "
         "\"placements\": [\"R\", \"S(1)\"]",
         "\"bias.bad_dim\", \"shape\": [8], \"dtype\": \"f32\", \"mesh\": \"main\", "
         "\"placements\": [\"R\", \"S(0)\"]"},
        {"teaching_2x2.json",
         "\"block.norm.weight\", \"shape\": [8], \"dtype\": \"f32\", \"placements\": [\"R\", "
         "\"R\"]",
         "\"block.norm.weight\", \"shape\": [8], \"dtype\": \"f32\", \"placements\": [\"R\", "
         "\"S(1)\"]"},
        {"llama3_8b_hsdp_2x4.json", "\"shape\": [2, 4]", "\"shape\": [4, 2]"},
    };
    return all;
}

QByteArray edited(const Variant& v) {
    QByteArray json = sampleText(v.sample);
    if (!json.contains(v.from)) qFatal("%s has no %s", v.sample, v.from.constData());
    return json.replace(v.from, v.to);
}

QString section(const PlanDiffModel& model, PlanDiffSection s, int row, int column) {
    return model.index(row, column, model.sectionIndex(s)).data().toString();
}

int rows(const PlanDiffModel& model, PlanDiffSection s) {
    return model.rowCount(model.sectionIndex(s));
}

QString numel(const std::optional<int64_t>& n) {
    return n ? QLocale(QLocale::English).toString(static_cast<qlonglong>(*n)) : QStringLiteral("—");
}

// (group id, coordinate text) -> (before, after) for every coordinate whose
// summed owner load differs, read off the diff's group summaries.
using LoadKey = std::pair<QString, QString>;
std::map<LoadKey, std::pair<QString, QString>> expectedLoads(const PlanDiff& diff) {
    std::map<LoadKey, std::pair<QString, QString>> out;
    for (const GroupDiff& g : diff.groups) {
        std::map<Coord, std::pair<std::optional<int64_t>, std::optional<int64_t>>> loads;
        if (g.before)
            for (const CoordLoad& l : g.before->loads) loads[l.coord].first = l.numel;
        if (g.after)
            for (const CoordLoad& l : g.after->loads) loads[l.coord].second = l.numel;
        for (const auto& [coord, pair] : loads) {
            if (pair.first == pair.second) continue;
            QStringList c;
            for (int64_t v : coord) c << QString::number(v);
            QString group = QStringLiteral("group %1").arg(g.after ? g.after->id : g.before->id);
            if (g.before && g.after && g.before->id != g.after->id)
                group = QStringLiteral("group %1 → %2").arg(g.before->id).arg(g.after->id);
            out[{group, QLatin1Char('(') + c.join(QLatin1Char(',')) + QLatin1Char(')')}] = {
                numel(pair.first), numel(pair.second)};
        }
    }
    return out;
}

}  // namespace

class TestPlanDiffModel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { qRegisterMetaType<PlanDiffTable>(); }
    void variants_data();
    void rowsMatchTheEnginesDiff_data() { variants_data(); }
    void rowsMatchTheEnginesDiff();
    void rowsCarryTheCurrentPlansPositions_data() { variants_data(); }
    void rowsCarryTheCurrentPlansPositions();
    void diagnosticRowsSelectTheirParams();
    void samePlanHasEmptySections();
    void modelUnderTester();
    void trackerComparesWithThePlanItReplaces();
    void trackerComparesWithAFile();
    void trackerReportsAnUnreadableFile();
};

void TestPlanDiffModel::variants_data() {
    QTest::addColumn<int>("variant");
    for (size_t i = 0; i < variants().size(); ++i)
        QTest::addRow("%zu %s", i, variants()[i].sample) << static_cast<int>(i);
}

void TestPlanDiffModel::rowsMatchTheEnginesDiff() {
    QFETCH(int, variant);
    const Variant& v = variants()[static_cast<size_t>(variant)];
    PlanResult before = planOf(sampleText(v.sample)), after = planOf(edited(v));
    PlanDiffTable change = computePlanChange(before, after, CurrentSide::After, "a", "b");
    const PlanDiff& diff = *change.diff;
    QVERIFY(!diff.same());
    PlanDiffModel model;
    model.setDiff(change);
    QCOMPARE(model.rowCount(), kChangeSectionCount);

    // Parameters: changed (B's order), then added, then removed, by name.
    QStringList names;
    for (const auto& p : diff.changedParams) names << QString::fromStdString(p.name);
    for (const auto& p : diff.addedParams) names << QString::fromStdString(p.name);
    for (const auto& p : diff.removedParams) names << QString::fromStdString(p.name);
    QCOMPARE(rows(model, PlanDiffSection::Params), names.size());
    for (int r = 0; r < names.size(); ++r)
        QCOMPARE(section(model, PlanDiffSection::Params, r, PlanDiffModel::ItemColumn), names[r]);
    for (size_t r = 0; r < diff.changedParams.size(); ++r) {
        const ParamDiff& d = diff.changedParams[r];
        QString what =
            section(model, PlanDiffSection::Params, static_cast<int>(r), PlanDiffModel::WhatColumn);
        QCOMPARE(what.contains(QStringLiteral("owner")), d.changes.owner);
        QCOMPARE(what.contains(QStringLiteral("batch")), d.changes.batch);
        if (d.changes.owner && d.before.owner && d.after.owner) {
            QStringList b, a;
            for (auto c : *d.before.owner) b << QString::number(c);
            for (auto c : *d.after.owner) a << QString::number(c);
            QVERIFY(section(model, PlanDiffSection::Params, static_cast<int>(r),
                            PlanDiffModel::BeforeColumn)
                        .contains(QLatin1Char('(') + b.join(QLatin1Char(',')) + QLatin1Char(')')));
            QVERIFY(section(model, PlanDiffSection::Params, static_cast<int>(r),
                            PlanDiffModel::AfterColumn)
                        .contains(QLatin1Char('(') + a.join(QLatin1Char(',')) + QLatin1Char(')')));
        }
    }

    // Loads: every coordinate whose summed owner load differs, before and after.
    auto loads = expectedLoads(diff);
    QCOMPARE(rows(model, PlanDiffSection::Loads), static_cast<int>(loads.size()));
    for (int r = 0; r < rows(model, PlanDiffSection::Loads); ++r) {
        LoadKey key{section(model, PlanDiffSection::Loads, r, PlanDiffModel::ItemColumn),
                    section(model, PlanDiffSection::Loads, r, PlanDiffModel::WhatColumn)};
        QVERIFY2(loads.count(key), qPrintable(key.first + " " + key.second));
        QCOMPARE(section(model, PlanDiffSection::Loads, r, PlanDiffModel::BeforeColumn),
                 loads[key].first);
        QCOMPARE(section(model, PlanDiffSection::Loads, r, PlanDiffModel::AfterColumn),
                 loads[key].second);
    }

    // Diagnostics, one row per subject, with the message on its side.
    QCOMPARE(rows(model, PlanDiffSection::DiagnosticsAppeared),
             static_cast<int>(diff.appearedDiagnostics.size()));
    QCOMPARE(rows(model, PlanDiffSection::DiagnosticsDisappeared),
             static_cast<int>(diff.disappearedDiagnostics.size()));
    for (size_t r = 0; r < diff.appearedDiagnostics.size(); ++r)
        QCOMPARE(section(model, PlanDiffSection::DiagnosticsAppeared, static_cast<int>(r),
                         PlanDiffModel::AfterColumn),
                 QString::fromStdString(diff.appearedDiagnostics[r].message));
    for (size_t r = 0; r < diff.disappearedDiagnostics.size(); ++r)
        QCOMPARE(section(model, PlanDiffSection::DiagnosticsDisappeared, static_cast<int>(r),
                         PlanDiffModel::BeforeColumn),
                 QString::fromStdString(diff.disappearedDiagnostics[r].message));

    // Imbalance: the worst batch as the status bar measures it, when it moved.
    QString worstBefore = QString::number(before.index->worstImbalance, 'f', 2);
    QString worstAfter = QString::number(after.index->worstImbalance, 'f', 2);
    if (worstBefore != worstAfter) {
        QCOMPARE(section(model, PlanDiffSection::Imbalance, 0, PlanDiffModel::BeforeColumn),
                 worstBefore);
        QCOMPARE(section(model, PlanDiffSection::Imbalance, 0, PlanDiffModel::AfterColumn),
                 worstAfter);
        QVERIFY(change.summary.contains(worstBefore + QStringLiteral(" → ") + worstAfter));
    }
    if (!diff.changedParams.empty())
        QVERIFY2(
            change.summary.startsWith(QStringLiteral("%1 param").arg(diff.changedParams.size())),
            qPrintable(change.summary));
}

void TestPlanDiffModel::rowsCarryTheCurrentPlansPositions() {
    QFETCH(int, variant);
    const Variant& v = variants()[static_cast<size_t>(variant)];
    PlanResult original = planOf(sampleText(v.sample)), edit = planOf(edited(v));
    // After an edit the current plan is "after"; compared with a file it is "before".
    for (CurrentSide side : {CurrentSide::After, CurrentSide::Before}) {
        const PlanResult& shown = side == CurrentSide::After ? edit : original;
        PlanDiffTable change = computePlanChange(original, edit, side, "a", "b");
        QCOMPARE(change.currentPlan, shown.plan);
        const auto& params = change.rows(PlanDiffSection::Params);
        for (size_t r = 0; r < change.diff->changedParams.size(); ++r) {
            const ParamDiff& d = change.diff->changedParams[r];
            int index = side == CurrentSide::After ? d.after.index : d.before.index;
            QCOMPARE(params[r].param, index);
            QCOMPARE(params[r].group, shown.index->params[static_cast<size_t>(index)].group);
            QCOMPARE(params[r].batch, shown.index->params[static_cast<size_t>(index)].batch);
            QCOMPARE(shown.scenario->params[static_cast<size_t>(index)].name, d.name);
        }
        for (const PlanDiffRow& row : change.rows(PlanDiffSection::Loads))
            QVERIFY(row.group < static_cast<int>(shown.plan->groups.size()));
    }
}

// Each appeared or disappeared diagnostic names its param; activating it
// selects that param of the current plan (first) and the diagnostic's others.
void TestPlanDiffModel::diagnosticRowsSelectTheirParams() {
    size_t appeared = 0, disappeared = 0;
    for (const Variant& v : variants()) {
        PlanResult before = planOf(sampleText(v.sample)), after = planOf(edited(v));
        PlanDiffTable change = computePlanChange(before, after, CurrentSide::After, "a", "b");
        auto check = [&](PlanDiffSection section, const std::vector<DiagnosticItem>& items) {
            const auto& rows = change.rows(section);
            QCOMPARE(rows.size(), items.size());
            for (size_t r = 0; r < items.size(); ++r) {
                const std::string& subject = items[r].subject;
                if (subject.rfind("param '", 0) != 0) continue;
                std::string name = subject.substr(7, subject.size() - 8);
                QVERIFY(!rows[r].params.empty());
                QCOMPARE(after.scenario->params[static_cast<size_t>(rows[r].params.front())].name,
                         name);
                QCOMPARE(rows[r].param, rows[r].params.front());
            }
        };
        check(PlanDiffSection::DiagnosticsAppeared, change.diff->appearedDiagnostics);
        check(PlanDiffSection::DiagnosticsDisappeared, change.diff->disappearedDiagnostics);
        appeared += change.diff->appearedDiagnostics.size();
        disappeared += change.diff->disappearedDiagnostics.size();
    }
    QVERIFY(appeared > 0);  // the variants exercise both sections
    QVERIFY(disappeared > 0);
}

void TestPlanDiffModel::samePlanHasEmptySections() {
    for (const Variant& v : variants()) {
        PlanDiffTable change =
            computePlanChange(planOf(sampleText(v.sample)), planOf(sampleText(v.sample)),
                              CurrentSide::After, "a", "b");
        QVERIFY(change.same());
        QCOMPARE(change.summary, QStringLiteral("Same plan"));
        PlanDiffModel model;
        model.setDiff(change);
        for (int s = 0; s < kChangeSectionCount; ++s)
            QCOMPARE(rows(model, static_cast<PlanDiffSection>(s)), 0);
    }
}

void TestPlanDiffModel::modelUnderTester() {
    PlanDiffModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    for (const Variant& v : variants()) {
        model.setDiff(computePlanChange(planOf(sampleText(v.sample)), planOf(edited(v)),
                                        CurrentSide::After, "a", "b"));
        QVERIFY(model.rowCount() > 0);
        model.setDiff(computePlanChange(planOf(edited(v)), planOf(sampleText(v.sample)),
                                        CurrentSide::Before, "a", "b"));
    }
    model.setDiff({});  // nothing to compare: no rows at all
    QCOMPARE(model.rowCount(), 0);
}

void TestPlanDiffModel::trackerComparesWithThePlanItReplaces() {
    const Variant& v = variants().front();
    PlanDiffTracker tracker;
    QSignalSpy ready(&tracker, &PlanDiffTracker::diffReady);
    PlanResult first = planOf(sampleText(v.sample), QStringLiteral("/doc.json"));
    tracker.planArrived(first);
    QVERIFY(tracker.isBusy());
    QVERIFY(ready.wait(20000));
    QVERIFY(!ready.last().at(0).value<PlanDiffTable>().isValid());  // nothing to compare yet
    PlanResult second = planOf(edited(v), QStringLiteral("/doc.json"));
    tracker.planArrived(second);
    QVERIFY(ready.wait(20000));
    PlanDiffTable change = ready.last().at(0).value<PlanDiffTable>();
    PlanDiff expected = diffPlans(*first.scenario, *first.plan, *second.scenario, *second.plan);
    QCOMPARE(change.diff->changedParams.size(), expected.changedParams.size());
    QCOMPARE(change.currentPlan, second.plan);
    QVERIFY(!change.same());
    // Another document starts afresh: nothing to compare it with.
    tracker.planArrived(planOf(sampleText(v.sample), QStringLiteral("/other.json")));
    QVERIFY(ready.wait(20000));
    QVERIFY(!tracker.change().isValid());
    QVERIFY(!tracker.change().note.isEmpty());
}

void TestPlanDiffModel::trackerComparesWithAFile() {
    const Variant& v = variants().front();
    QTemporaryDir dir;
    QString other = dir.filePath(QStringLiteral("other.json"));
    {
        QFile file(other);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(edited(v));
    }
    PlanDiffTracker tracker;
    QSignalSpy ready(&tracker, &PlanDiffTracker::diffReady);
    PlanResult current = planOf(sampleText(v.sample), QStringLiteral("/doc.json"));
    tracker.planArrived(current);
    QVERIFY(ready.wait(20000));
    tracker.compareWith(other);
    QCOMPARE(tracker.mode(), PlanDiffTracker::Mode::AgainstFile);
    QVERIFY(ready.wait(20000));
    PlanDiffTable change = tracker.change();
    QCOMPARE(change.current, CurrentSide::Before);
    QCOMPARE(change.currentPlan, current.plan);
    QCOMPARE(change.afterLabel, QStringLiteral("other.json"));
    PlanResult reference = computePlanResult(other);
    PlanDiff expected =
        diffPlans(*current.scenario, *current.plan, *reference.scenario, *reference.plan);
    QCOMPARE(change.diff->changedParams.size(), expected.changedParams.size());
    QVERIFY(!change.same());
    // Back to "since the last change": one plan only, nothing to compare.
    tracker.compareSinceLastChange();
    QVERIFY(ready.wait(20000));
    QVERIFY(!tracker.change().isValid());
}

void TestPlanDiffModel::trackerReportsAnUnreadableFile() {
    QTemporaryDir dir;
    PlanDiffTracker tracker;
    QSignalSpy failed(&tracker, &PlanDiffTracker::compareFailed);
    tracker.planArrived(planOf(sampleText("teaching_2x2.json"), QStringLiteral("/doc.json")));
    QString missing = dir.filePath(QStringLiteral("missing.json"));
    tracker.compareWith(missing);
    QVERIFY(failed.wait(20000));
    QString expected;
    try {
        readScenarioFile(missing.toStdString());
    } catch (const std::exception& error) {
        expected = QString::fromStdString(error.what());
    }
    QCOMPARE(failed.last().at(0).toString(), expected);
    QCOMPARE(tracker.mode(), PlanDiffTracker::Mode::SinceLastChange);
}

QTEST_MAIN(TestPlanDiffModel)
#include "tst_plan_diff_model.moc"
