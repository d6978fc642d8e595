// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QMetaType>
#include <QString>
#include <functional>
#include <memory>

#include "cluster/cluster.h"
#include "plan/plan.h"
#include "scenario/json_text.h"
#include "types/scenario.h"

namespace hsdp {

// Whether this is the GUI thread of a running application; runs `release` on
// the global thread pool.
bool releasesOffGuiThread();
void releaseOffGuiThread(std::function<void()> release);

// A shared value whose last owner, if that is the GUI thread, hands it to
// a pool thread to free: a replaced plan of 662 batches at 131,072 ranks is
// GiB of small allocations, hundreds of milliseconds of free() the GUI
// thread must not spend. Freed in place once the application is gone.
template <typename T>
std::shared_ptr<const T> freedOffGuiThread(T&& value) {
    return std::shared_ptr<const T>(new T(std::move(value)), [](const T* p) {
        if (releasesOffGuiThread()) {
            releaseOffGuiThread([p] { delete p; });
            return;
        }
        delete p;
    });
}

struct PlanIndex;
struct PlanPrediction;
struct PlanTreeRows;

// Everything the views need about one planned scenario, built off the GUI
// thread and shared read-only: models copy the pointers, never recompute.
struct PlanResult {
    QString path;
    std::shared_ptr<const Scenario> scenario;
    std::shared_ptr<const Plan> plan;
    std::shared_ptr<const PlanIndex> index;    // lookups: owners, loads, counts
    std::shared_ptr<const PlanTreeRows> tree;  // display rows of the plan tree
    // The JSON document the scenario was read from (what the edit panel edits);
    // null for a result built from a Scenario in memory.
    std::shared_ptr<const Json> document;
    // The plan costed on the session's cluster (prediction/plan_prediction.h);
    // null when no cluster is chosen.
    std::shared_ptr<const PlanPrediction> prediction;

    bool isValid() const { return scenario && plan && index && tree; }
};

// How texts name the document of `path`: its file name, or "untitled" for a
// document with no file yet (a generated scenario), never "".
QString documentName(const QString& path);

// Reads and plans `path` exactly as hsdp-inspect does (same reader, same
// planner, so the same errors), then precomputes the index and the tree rows.
// `options.gather_strategy: auto` is weighed on `strategyCluster` (the
// session's chosen cluster), on the loopback preset when null, as
// hsdp-inspect does with and without --cluster.
// Throws ScenarioError for a file the reader rejects. Runs on any thread.
PlanResult computePlanResult(const QString& path, const Cluster* strategyCluster = nullptr);
// The same from an edited document of the file `path`: errors name `path`.
PlanResult computePlanResult(std::shared_ptr<const Json> document, const QString& path,
                             const Cluster* strategyCluster = nullptr);
// The same from a scenario already in memory (benchmarks, tests).
PlanResult computePlanResult(Scenario scenario, const QString& path = {},
                             const Cluster* strategyCluster = nullptr);
// Whether some group of `plan` left its gather strategy to the cost model.
bool weighsGatherStrategies(const PlanResult& plan);

}  // namespace hsdp

Q_DECLARE_METATYPE(hsdp::PlanResult)
