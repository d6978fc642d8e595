// SPDX-License-Identifier: Apache-2.0
#include "run/runner.h"

#include "run/run_parts.h"

#include <cctype>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <unordered_set>

#include "collectives/adamw_step.h"
#include "collectives/newton_schulz.h"
#include "run/detail/run_summary.h"
#include "run/detail/tp_transition.h"
#include "run/exec_env.h"
#include "run/optimizer_step.h"
#include "run/real_size.h"
#include "run/shrink.h"
#include "run/used_groups.h"
#include "runtime/memory_ledger.h"
#include "verify/truth.h"

namespace hsdp {

namespace {

// The single-device result of every parameter, computed once: W - lr·NS(G)
// rounded to the dtype (frozen: W), and the update NS(G) itself (an AdamW
// param: AdamW's first update from G's two moments).
// Most of a run's preparation (0.8 s of the 70B sample's first second): a
// cancel stops it between parameters.
void singleDeviceResults(const Scenario& scenario, const Plan& plan, ExecEnv& env) {
    const auto& shapes = env.paramShapes;
    auto& out = env.expected;
    out.assign(scenario.params.size(), Tensor());
    env.expectedUpdate.assign(scenario.params.size(), Tensor());
    for (const auto& spec : scenario.params) {
        const int p = spec.index;
        if (env.cancel && env.cancel->load()) return;
        if (plan.isRejected(p)) continue;
        const auto& shape = shapes[size_t(p)];
        Tensor w = localTensor(Truth::weight(p), shape, {}, {}, {}, spec.dtype);
        if (spec.requiresGrad) {
            Tensor g = localTensor(Truth::grad(p), shape, {}, {}, {}, spec.dtype);
            if (spec.isAdamW()) {
                Tensor m, v;
                adamwMoments(g, m, v);
                env.expectedUpdate[size_t(p)] = adamwUpdate(m, v);
            } else {
                env.expectedUpdate[size_t(p)] = newtonSchulz(g, scenario.options.newtonSchulz);
            }
            applyUpdate(w, env.expectedUpdate[size_t(p)], scenario.options.lr, spec.dtype);
        }
        out[size_t(p)] = std::move(w);
    }
}

void checkCancel(const ExecEnv& env) {
    if (env.cancel && env.cancel->load()) throw std::runtime_error("run cancelled");
}

}  // namespace

WorldOptions runWorldOptions(const Scenario& scenario, const RunOptions& options) {
    WorldOptions world;
    world.worldSize = scenario.worldSize;
    world.timeout = options.timeout;
    world.fault = options.fault;
    world.cancel = options.cancel;
    world.worldGroup = false;  // usedGroups: no phase runs on the world
    return world;
}

void rankBody(RankContext& ctx, const ExecEnv& env) {
    // The optimizer step's buffers are counted on this rank's ledger (declared
    // first: the state's charges end on it).
    MemoryTally memory;
    std::optional<LedgerScope> counting(memory);
    std::vector<ParamState> state = initialState(env, ctx.rank());
    RankOptimizerStep rankStep{ctx, env, state};
    const double stepStartUs = ctx.nowUs();
    const auto& schedule = env.plan->schedule;
    const double total = double(schedule.size() + env.plan->tpTransitions.size() + 1);
    auto report = [&](double done, const std::string& what) {
        if (ctx.rank() == 0 && env.progress) env.progress(done / total, what);
    };
    for (size_t i = 0; i < schedule.size(); ++i) {
        checkCancel(env);
        const Group& group = env.plan->groups.at(size_t(schedule[i].group));
        report(double(i), "step " + std::to_string(i) + ": group " + std::to_string(group.id) +
                              " batch " + std::to_string(schedule[i].batch));
        memory.beginEntry(int(i));
        runScheduleEntry(rankStep, int(i), group, schedule[i].batch);
    }
    memory.beginEntry(-1);
    runLocalParams(rankStep);
    counting.reset();
    env.sink->stepMemory(memory.result(ctx.rank()));
    for (size_t t = 0; t < env.plan->tpTransitions.size(); ++t) {
        checkCancel(env);
        report(double(schedule.size() + t), "tp transition " + std::to_string(t));
        runTpTransition(ctx, env, int(t));
    }
    if (env.sink) env.sink->stepTimes(ctx.rank(), stepStartUs, ctx.nowUs());
    report(total, "done");
}

void prepareRun(const Scenario& scenario, const Plan& plan, const RunOptions& options,
                bool expected, ExecEnv& env, RunResult& result) {
    if (plan.worldSize != scenario.worldSize)
        throw std::invalid_argument("runPlan: the plan is not of this scenario");
    requireSettledPlan(plan, "runPlan");
    result.mode = options.mode;
    result.worldSize = scenario.worldSize;
    ShrinkDecision shrink = decideShrink(scenario, plan, options.maxBytes, options.flopBudget);
    if (shrink.info) result.shrink = shrink.info;
    env.scenario = &scenario;
    env.plan = &plan;
    env.mode = options.mode;
    env.paramShapes = shrink.paramShapes;
    env.tpShapes = shrink.tpShapes;
    env.cancel = options.cancel;
    if (expected) singleDeviceResults(scenario, plan, env);
    env.observer = options.observer;
    env.progress = options.progress;
}

void concludeRun(const ExecEnv& env, const RunSink& sink, Trace trace, RunResult& result) {
    result.trace = std::move(trace);
    std::unordered_set<int64_t> ids;
    result.rankEvents = 0;
    for (const auto& e : result.trace.events) {
        if (isCompute(e)) continue;  // counts and bytes are the collectives'
        ids.insert(e.seq);
        result.bytes += e.bytes;
        ++result.rankEvents;
    }
    result.collectives = static_cast<int64_t>(ids.size());
    if (result.shrink)
        result.shrink->realBytes =
            realWireBytes(result.trace, realScale(*env.scenario, result.shrink));
    summarize(env, sink, result);
    if (result.error.empty()) {
        result.stepSeconds = sink.stepSeconds();
        result.rankStepUs = sink.rankStepTimes(result.worldSize);
    }
}

SocketEstimate runSocketEstimate(const Scenario& scenario, const Plan& plan,
                                 const RunOptions& options) {
    return socketEstimate(runWorldOptions(scenario, options),
                          usedGroups(scenario, plan, options.mode));
}

RunResult runPlan(const Scenario& scenario, const Plan& plan, const RunOptions& options) {
    const auto started = std::chrono::steady_clock::now();
    RunResult result;
    ExecEnv env;
    if (options.progress) options.progress(0, "computing the single-device truth");
    prepareRun(scenario, plan, options, true, env, result);
    result.prepareSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (options.progress) options.progress(0, "connecting the process groups");
    RunSink sink;
    env.sink = &sink;
    TraceRecorder own;
    WorldOptions world = runWorldOptions(scenario, options);
    world.trace = options.trace ? options.trace : &own;
    try {
        // A cancel while preparing ends the run before any rank connects.
        if (options.cancel && options.cancel->load())
            result.error = "run cancelled while preparing, before any collective";
        else
            result.connectSeconds = runWorld(world, usedGroups(scenario, plan, options.mode),
                                             [&](RankContext& ctx) { rankBody(ctx, env); });
    } catch (const RunError& error) {
        result.error = error.what();
        result.errorRank = error.rank;
    } catch (const std::exception& error) {
        result.error = error.what();
    }
    result.cancelled = options.cancel && options.cancel->load();
    Trace trace = world.trace->take();
    concludeRun(env, sink, std::move(trace), result);
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
}

}  // namespace hsdp
