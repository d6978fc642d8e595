// SPDX-License-Identifier: Apache-2.0
#include "gather_measure.h"

#include <algorithm>
#include <chrono>
#include <cstddef>

#include "runtime/world.h"
#include "verify/truth.h"

namespace hsdp::bench {

namespace {

using Clock = std::chrono::steady_clock;

// What one rank thread records; each thread writes only its own record.
struct RankRecord {
    std::vector<double> fused, unfused, raw;
    std::vector<GatherTimings> phases;
    std::string error;  // verification failure seen by this rank
    int views = 0;      // of the verified fused result
};

// The three contenders as one rank runs them, sharing its shards.
class RankGather {
public:
    RankGather(RankContext& ctx, const GatherWorkload& w, const Mesh& mesh)
        : ctx_(ctx),
          w_(w),
          coord_(*mesh.coordinateOf(ctx.rank())),
          comm_(ctx.group(mesh.groupAlong(0, coord_))) {
        label_.phase = "bench";
        for (int p = 0; p < w.params(); ++p)
            locals_.push_back(localTensor(Truth::grad(p), w.shapes[size_t(p)], w.placements(),
                                          mesh.shape, coord_, w.dtype));
        for (int p = 0; p < w.params(); ++p)
            items_.push_back(
                {p, w.shapes[size_t(p)], w.placements(), w.dtype, &locals_[size_t(p)]});
        setup_ = GatherSetup{&mesh, coord_, {{0, 0}}, w.alignmentBytes, label_};
        rawIn_.assign(size_t(w.packedBytes()), std::byte{1});
        rawOut_.assign(size_t(w.packedBytes()) * size_t(w.ranks), std::byte{0});
    }

    std::vector<GatheredTensor> fused(GatherTimings* timings) {
        setup_.timings = timings;
        return fusedGatherCorrected(ctx_, setup_, items_).full;
    }

    // What a non-fused optimizer does: per parameter, allocate the full
    // tensor and all-gather the shard into it (S(0), even: rank-major blocks
    // are the full tensor, f32 wire = storage, so no copy at all).
    std::vector<Tensor> unfused() {
        std::vector<Tensor> full;
        for (int p = 0; p < w_.params(); ++p) {
            Tensor t(w_.shapes[size_t(p)]);
            comm_.allGather(locals_[size_t(p)].data.data(), t.data.data(), size_t(w_.shardBytes(p)),
                            label_);
            full.push_back(std::move(t));
        }
        return full;
    }

    void raw() { comm_.allGather(rawIn_.data(), rawOut_.data(), rawIn_.size(), label_); }

    // Seconds from leaving a barrier to the end of `work` on this rank.
    template <typename Work>
    double timed(Work&& work) {
        comm_.barrier(label_);
        const auto start = Clock::now();
        work();
        return std::chrono::duration<double>(Clock::now() - start).count();
    }

    std::string verify(bool checkTruth, int& views) {
        const auto a = fused(nullptr);
        const auto b = unfused();
        views = int(std::count_if(a.begin(), a.end(), [](const auto& t) { return t.isView(); }));
        for (int p = 0; p < w_.params(); ++p) {
            if (a[size_t(p)] != b[size_t(p)])
                return "rank " + std::to_string(ctx_.rank()) + ": fused != unfused for param " +
                       std::to_string(p);
            if (checkTruth && a[size_t(p)] != globalTensor(Truth::grad(p), w_.shapes[size_t(p)]))
                return "rank " + std::to_string(ctx_.rank()) + ": gathered param " +
                       std::to_string(p) + " != truth";
        }
        return {};
    }

private:
    RankContext& ctx_;
    const GatherWorkload& w_;
    Coord coord_;
    Communicator& comm_;
    CollectiveLabel label_;
    std::vector<Tensor> locals_;
    std::vector<GatherItem> items_;
    GatherSetup setup_;
    std::vector<std::byte> rawIn_, rawOut_;
};

enum class Variant { Fused, Unfused, Raw };

void runVariant(RankGather& g, Variant v, RankRecord& rec) {
    // The results die outside the timed region; the fused views free their
    // buffer for the next round then.
    if (v == Variant::Fused) {
        std::vector<GatheredTensor> held;
        GatherTimings split;
        rec.fused.push_back(g.timed([&] { held = g.fused(&split); }));
        rec.phases.push_back(split);
    } else if (v == Variant::Unfused) {
        std::vector<Tensor> held;
        rec.unfused.push_back(g.timed([&] { held = g.unfused(); }));
    } else {
        rec.raw.push_back(g.timed([&] { g.raw(); }));
    }
}

void rankBody(RankContext& ctx, const GatherWorkload& w, const Mesh& mesh, const MeasureOptions& o,
              RankRecord& rec) {
    RankGather g(ctx, w, mesh);
    rec.error = g.verify(o.checkTruth, rec.views);  // also the warm-up of fused and unfused
    g.raw();
    std::vector<Variant> variants{Variant::Fused};
    if (o.unfused) variants.push_back(Variant::Unfused);
    if (o.raw) variants.push_back(Variant::Raw);
    for (int r = 0; r < o.rounds; ++r) {
        // Each round starts with the next variant, so none always follows the
        // same one: TCP state (congestion window after small messages), caches
        // and the allocator left by the previous one would favour some.
        for (size_t k = 0; k < variants.size(); ++k)
            runVariant(g, variants[(size_t(r) + k) % variants.size()], rec);
    }
}

// Per round, the slowest rank's time; `slowest` gets that rank's index.
std::vector<double> slowestPerRound(const std::vector<RankRecord>& recs,
                                    std::vector<double> RankRecord::*series,
                                    std::vector<size_t>* slowest) {
    std::vector<double> out;
    const size_t rounds = (recs.front().*series).size();
    for (size_t r = 0; r < rounds; ++r) {
        size_t worst = 0;
        for (size_t k = 1; k < recs.size(); ++k)
            if ((recs[k].*series)[r] > (recs[worst].*series)[r]) worst = k;
        out.push_back((recs[worst].*series)[r]);
        if (slowest) slowest->push_back(worst);
    }
    return out;
}

}  // namespace

GatherSamples measureGather(const GatherWorkload& w, const MeasureOptions& options) {
    const Mesh mesh = w.mesh();
    std::vector<RankRecord> recs(size_t(w.ranks));
    WorldOptions world;
    world.worldSize = w.ranks;
    world.timeout = std::chrono::milliseconds(120000);
    runWorld(world, mesh.groupsAlong(0),
             [&](RankContext& ctx) { rankBody(ctx, w, mesh, options, recs[size_t(ctx.rank())]); });
    GatherSamples s;
    std::vector<size_t> slowest;
    s.fused = slowestPerRound(recs, &RankRecord::fused, &slowest);
    for (size_t r = 0; r < slowest.size(); ++r) s.phases.push_back(recs[slowest[r]].phases[r]);
    if (options.unfused) s.unfused = slowestPerRound(recs, &RankRecord::unfused, nullptr);
    if (options.raw) s.raw = slowestPerRound(recs, &RankRecord::raw, nullptr);
    s.verified = true;
    s.views = recs.front().views;
    for (const auto& rec : recs) s.views = std::min(s.views, rec.views);
    for (const auto& rec : recs)
        if (!rec.error.empty() && s.verified) {
            s.verified = false;
            s.detail = rec.error;
        }
    return s;
}

}  // namespace hsdp::bench
