// SPDX-License-Identifier: Apache-2.0
#include "trace_bench.h"

#include <QApplication>
#include <QHBoxLayout>
#include <QImage>
#include <QPainter>
#include <QWidget>
#include <memory>

#include "bench_common.h"
#include "mesh/mesh_canvas.h"
#include "run/runner.h"
#include "steps/step_widget.h"
#include "trace/trace_widget.h"

namespace hsdp::bench {

namespace {

constexpr int kSyntheticRanks = 50;
constexpr int kSyntheticEvents = 100000;

// Back-to-back collectives of varying length on every rank: far more events
// than the overview has pixels.
std::shared_ptr<const TraceTimeline> syntheticTimeline() {
    auto run = std::make_shared<RunResult>();
    run->worldSize = kSyntheticRanks;
    for (int r = 0; r < kSyntheticRanks; ++r) {
        double t = r * 3.0;
        for (int i = 0; i < kSyntheticEvents / kSyntheticRanks; ++i) {
            TraceEvent e;
            e.seq = i;
            e.rank = r;
            e.op = i % 3 ? "broadcast" : "all_gather";
            e.label.phase = i % 3 ? (i % 7 ? "replica-broadcast" : "update-broadcast") : "gather";
            e.groupRanks = {r};
            e.startUs = t;
            e.endUs = t + 5 + (i * 7 + r) % 40;
            t = e.endUs + 1 + i % 5;
            run->trace.events.push_back(e);
        }
    }
    return std::make_shared<const TraceTimeline>(run, kSyntheticRanks);
}

std::pair<double, double> paintSeconds(int rounds) {
    PlanSelection selection;
    TraceCanvas canvas(&selection);
    canvas.setTimeline(syntheticTimeline());
    QImage image(QSize(1600, 1000), QImage::Format_ARGB32_Premultiplied);
    const double begin = canvas.windowStart(), end = canvas.windowEnd();
    const double middle = (begin + end) / 2, span = (end - begin) / 200;
    auto paint = [&] {
        QPainter painter(&image);
        canvas.paintTimeline(painter, image.size());
    };
    auto samples = interleaved(rounds, {[&] {
                                            canvas.setWindow(begin, end);
                                            paint();
                                        },
                                        [&] {
                                            canvas.setWindow(middle - span / 2, middle + span / 2);
                                            paint();
                                        }});
    return {median(samples[0]), median(samples[1])};
}

// The three views a step change repaints, side by side in one offscreen window.
std::pair<double, int> stepChangeSeconds(const QString& scenario, int rounds) {
    RunData run;
    run.plan = computePlanResult(scenario);
    run.run = std::make_shared<const RunResult>(
        runPlan(*run.plan.scenario, *run.plan.plan, RunOptions{}));
    PlanSelection selection;
    QWidget window;
    auto* steps = new StepWidget(&selection, &window);
    auto* trace = new TraceWidget(&selection, &window);
    auto* mesh = new MeshCanvas(&selection, &window);
    auto* layout = new QHBoxLayout(&window);
    layout->addWidget(steps);
    layout->addWidget(trace, 2);
    layout->addWidget(mesh);
    steps->setRun(run);
    trace->setRun(run);
    mesh->setResult(run.plan);
    window.resize(1600, 1000);
    window.setAttribute(Qt::WA_DontShowOnScreen);
    window.show();
    steps->first();
    QApplication::processEvents();
    (void)window.grab();
    std::vector<double> samples;
    for (int r = 0; r < rounds; ++r)
        samples.push_back(secondsOf([&] {
            if (steps->currentStep() + 1 >= steps->stepCount()) steps->first();
            steps->next();
            // grab() paints every child now, shown or not (what the screen would get).
            (void)window.grab();
        }));
    return {median(samples), steps->stepCount()};
}

}  // namespace

TraceBenchFigures traceBenchmark(const QString& runScenario, int rounds) {
    TraceBenchFigures figures;
    auto [overview, zoomed] = paintSeconds(rounds);
    figures.paintOverviewMs = overview * 1e3;
    figures.paintZoomedMs = zoomed * 1e3;
    if (runScenario.isEmpty()) return figures;  // nothing to run: no steps
    auto [step, count] = stepChangeSeconds(runScenario, std::max(rounds, 30));
    figures.stepChangeMs = step * 1e3;
    figures.steps = count;
    return figures;
}

}  // namespace hsdp::bench
