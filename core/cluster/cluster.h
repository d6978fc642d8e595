// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace hsdp {

// The two levels of links a collective can cross: NVLink-class links inside a
// node, the network (InfiniBand, RoCE) between nodes. Inter is the slower one.
enum class LinkLevel { IntraNode, InterNode };

// "intra_node" | "inter_node", the keys of `links` in a cluster file.
std::string_view linkLevelName(LinkLevel level);

// One level of links as one GPU sees it.
struct LinkSpec {
    double bandwidthBytesPerSecond = 0;  // per GPU, per direction (unidirectional)
    double latencySeconds = 0;           // one step of a collective algorithm (alpha)
    double efficiency = 1;               // in (0, 1]: the fraction of bandwidth achieved
    // Added to latencySeconds per rank of the group (`latency_us_per_rank`):
    // a ring step over threads that share cores waits for every member to be
    // scheduled. 0 by default (GPUs).
    double latencyPerRankSeconds = 0;
    // With shared cores (`idle_wake_up_us`): per step, the wait to wake a
    // member whose core had gone idle, weighted by the idle fraction of the
    // cores when the collective starts (the shared-core pass adds it). A
    // virtual machine's idle vCPU wakes only when the host schedules it again.
    double idleWakeSeconds = 0;

    // bandwidthBytesPerSecond * efficiency.
    double effectiveBandwidth() const { return bandwidthBytesPerSecond * efficiency; }
    // One step of a collective over `ranks` ranks: latency + ranks x latency per rank.
    double stepLatency(int ranks) const { return latencySeconds + ranks * latencyPerRankSeconds; }
};

// Peak dense math throughput of one device, FLOP/s, without sparsity.
struct DeviceFlops {
    double float32 = 0;
    double bfloat16 = 0;
    double float16 = 0;
};

struct DeviceSpec {
    std::string name;  // "NVIDIA H100 SXM5 80GB"; may be empty
    int64_t memoryBytes = 0;
    DeviceFlops peakFlops;
    // HBM bandwidth: what packing, unpacking and the update (memory-bound) run
    // at. 0 when the file leaves it out: that work is then not costed.
    double memoryBandwidthBytesPerSecond = 0;
    double efficiency = 1;  // in (0, 1]: the fraction of peak FLOP/s and bandwidth achieved
    // A matrix product (Newton–Schulz's, core/cost/newton_schulz_cost.h):
    // the fraction of the dtype's peak a large one achieves
    // (`matmul_efficiency`; 0: `efficiency`), the output elements below which
    // it leaves the device part idle and slows in proportion
    // (`matmul_saturation_elements`; 0: none), and the fixed time of each
    // product (`kernel_overhead_us`: launch and tail).
    double matmulEfficiency = 0;
    double matmulSaturationElements = 0;
    double kernelOverheadSeconds = 0;

    // matmulEfficiency, or efficiency where the file gives none.
    double achievedMatmulEfficiency() const {
        return matmulEfficiency > 0 ? matmulEfficiency : efficiency;
    }
};

// How far the cluster's predictions are known to hold (`validation`): the
// error of its figures against measurements that did not fit them, and what
// those were. Every front end shows it beside a predicted time.
struct ClusterValidation {
    double errorPercent = -1;  // < 0: not validated
    std::string basis;         // "3 published GPU measurements"
    // `scope` "pieces": the error is of the cluster's pieces (links, matrix
    // products) against figures of them, not of a measured optimizer step;
    // "step" (the default): of whole steps the figures were not fitted to.
    bool piecesOnly = false;
};

// Which algorithms a collective runs as: NCCL's ring (the GPU clusters the
// presets describe) or Gloo's (the engine's own runs; broadcast is a binomial
// tree there). docs/cost-model.md gives the steps and bytes of each.
enum class CollectiveAlgorithms { NcclRing, Gloo };
// "nccl_ring" | "gloo", the values of `collective_algorithms` in a cluster file.
std::string_view collectiveAlgorithmsName(CollectiveAlgorithms algorithms);

// An `hsdp-cluster/1` file (docs/cluster-format.md): nodes of identical GPUs,
// ranks 0 .. worldSize()-1 placed on them.
struct Cluster {
    std::string name;
    std::string description;
    int nodes = 1;
    int devicesPerNode = 1;
    // rankToNode[rank]: the node a rank runs on; worldSize() entries. By
    // default rank / devicesPerNode, the layout torchrun gives.
    std::vector<int> rankToNode;
    LinkSpec intraNode;
    LinkSpec interNode;
    // Per op (the trace's spelling, "broadcast"), figures that replace the
    // level's for that op: a link level's `by_op`. Empty on the GPU presets.
    std::map<std::string, LinkSpec, std::less<>> intraNodeByOp;
    std::map<std::string, LinkSpec, std::less<>> interNodeByOp;
    DeviceSpec device;
    CollectiveAlgorithms algorithms = CollectiveAlgorithms::NcclRing;
    // The CPU cores the ranks of one node share, as the engine's rank threads
    // share the host's (docs/cost-model.md, "Shared cores"): with A ranks busy
    // at once each runs at min(1, cores / A) of its speed. 0: every rank has a
    // device of its own (GPUs), no sharing.
    double sharedCores = 0;
    // With sharedCores: how much of a core each member of a running
    // collective keeps busy (`collective_member_load`, in (0, 1]; default 1):
    // a rank in a Gloo collective is partly asleep in the kernel's socket
    // calls, so a collective's members weigh less than computing ranks.
    double collectiveMemberLoad = 1;
    // The optional `calibration` object (what `hsdp-inspect calibrate`
    // measured and how well its fit reproduces it), as compact JSON text kept
    // as written; the model never reads it. Empty when the file has none.
    std::string calibration;
    ClusterValidation validation;

    // "± 18 % (3 published GPU measurements)", "± 3 % on its pieces only
    // (...)" for a pieces-only validation, or "not validated".
    std::string trustText() const;
    // The status bar's form: "± 18 %", "(pieces ± 3 %)", "not validated".
    std::string trustShortText() const;
    // Whether the cluster describes the engine's own runs (Gloo over
    // loopback: the loopback preset and what `calibrate` fits): only then is
    // a run's measured time evidence for or against its prediction.
    bool describesEngineRuns() const { return algorithms == CollectiveAlgorithms::Gloo; }

    int worldSize() const { return nodes * devicesPerNode; }
    // Throws std::out_of_range for a rank outside 0 .. worldSize()-1.
    int nodeOf(int rank) const;
    // The slowest level the group's ranks span: IntraNode when they all run on
    // one node (a group of one rank, or none, included), else InterNode.
    // Throws std::out_of_range for a rank outside the cluster.
    LinkLevel linkLevelOf(const std::vector<int>& ranks) const;
    const LinkSpec& link(LinkLevel level) const;
    // The figures `op` runs at on `level`: its by_op entry, else the level's.
    const LinkSpec& link(LinkLevel level, std::string_view op) const;
};

// rank / devicesPerNode for every rank of nodes * devicesPerNode.
std::vector<int> defaultRankToNode(int nodes, int devicesPerNode);

// The same hardware with `nodes` nodes and the default rank -> node map (a
// preset describes one node; a scenario needs as many as its world size).
Cluster withNodes(const Cluster& cluster, int nodes);

}  // namespace hsdp
