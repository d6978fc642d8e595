// SPDX-License-Identifier: Apache-2.0
#include "derived/run/step_caption.h"

#include <QStringList>
#include <algorithm>

#include "derived/run/traffic_stats.h"
#include "run/optimizer_step.h"
#include "run/shrink.h"
#include "step/entry_owners.h"
#include "types/collective_op.h"

namespace hsdp {

namespace {

QString sentenceStart(QString text) {
    if (!text.isEmpty()) text[0] = text[0].toUpper();
    return text;
}

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

QString coordText(const Mesh& mesh, const Coord& coord, const std::vector<int>& dims) {
    QStringList parts;
    for (size_t i = 0; i < dims.size() && i < coord.size(); ++i)
        parts << QStringLiteral("%1=%2")
                     .arg(QString::fromStdString(mesh.dimNames[static_cast<size_t>(dims[i])]))
                     .arg(coord[i]);
    return parts.join(QStringLiteral(", "));
}

// Everything a phase's sentence needs, looked up once.
struct Context {
    const Scenario& scenario;
    const Plan& plan;
    const TraceEvent& event;
    const RunStep& step;
    const Mesh* mesh = nullptr;
    const Group* group = nullptr;
    const Batch* batch = nullptr;
    QString dim;     // "dp_shard"
    QString params;  // "embed.weight, head.weight"
    double size = 0;
    const RealScale* real = nullptr;
    std::vector<StepFault> faults;  // what verification found wrong in the step
};

// A size inside a sentence: "184.0 KiB", shrunk "184.0 KiB in the shrunk
// run, ≈ 9.7 GiB at real size".
QString sizeText(const Context& c, double bytes) {
    QString text = qs(humanBytes(bytes));
    if (!c.real || !c.real->shrunk()) return text;
    text += QStringLiteral(" in the shrunk run");
    if (auto real = c.real->realBytes(c.event.label, bytes))
        text += QStringLiteral(", ≈ %1 at real size").arg(qs(humanBytes(*real)));
    return text;
}

const Group* groupById(const Plan& plan, int id) {
    for (const Group& g : plan.groups)
        if (g.id == id) return &g;
    return nullptr;
}

// The broadcast's root: in Gloo's binomial tree only the root sends
// ceil(log2 n) copies, more than any other member.
int rootOf(const Context& c, const Trace& trace) {
    int root = -1;
    int64_t most = 0;
    for (int e : c.step.events) {
        const TraceEvent& ev = trace.events[static_cast<size_t>(e)];
        if (ev.bytes > most) {
            most = ev.bytes;
            root = ev.rank;
        }
    }
    return root;
}

std::vector<int> othersThan(const std::vector<int>& ranks, int rank) {
    std::vector<int> others;
    for (int r : ranks)
        if (r != rank) others.push_back(r);
    return others;
}

QString batchText(const Context& c) {
    return QStringLiteral("batch %1 of group %2").arg(c.event.label.batch).arg(c.event.label.group);
}

// Who runs Newton–Schulz on each param: the batch's shard-compute
// coordinate inside this replica's shard group.
// A rank's coordinate along the group's shard dims: "dp_shard=0, tp=1".
QString shardCoordText(const Context& c, int rank) {
    const Coord coord = *c.mesh->coordinateOf(rank);
    Coord sub;
    for (int d : c.group->shardMeshDims) sub.push_back(coord[static_cast<size_t>(d)]);
    return coordText(*c.mesh, sub, c.group->shardMeshDims);
}

// The rank that runs Newton–Schulz on param `p` (the batch's shard-compute
// coordinate inside this replica's shard group), or -1.
int computeRankOf(const Context& c, int p) {
    if (!c.mesh || !c.group || !c.batch) return -1;
    auto coord = c.mesh->coordinateOf(c.event.rank);
    if (!coord) return -1;
    const Coord shard =
        computeShard(*c.group, *c.batch, reducedReplicateCoord(*c.group, *c.batch, *coord), p);
    Coord full = *coord;
    for (size_t i = 0; i < c.group->shardMeshDims.size(); ++i)
        full[static_cast<size_t>(c.group->shardMeshDims[i])] = shard[i];
    return c.mesh->rankAt(full);
}

QString computeText(const Context& c) {
    constexpr int kShown = 4;
    QStringList parts;
    const auto& params = c.event.label.params;
    for (size_t i = 0; i < params.size() && i < kShown; ++i) {
        const int rank = computeRankOf(c, params[i]);
        if (rank < 0) continue;
        parts << QStringLiteral("rank %1 (%2) runs Newton–Schulz on the full %3")
                     .arg(rank)
                     .arg(shardCoordText(c, rank))
                     .arg(QString::fromStdString(
                         c.scenario.params[static_cast<size_t>(params[i])].name));
    }
    if (params.size() > kShown)
        parts << QStringLiteral("and %1 more params likewise").arg(params.size() - kShown);
    return parts.join(QStringLiteral("; "));
}

QString ownerText(const Context& c) {
    if (!c.mesh || !c.group || !c.batch || c.event.label.params.empty()) return {};
    auto it = c.batch->owner.find(c.event.label.params.front());
    if (it == c.batch->owner.end()) return {};
    QString coord = coordText(*c.mesh, it->second, c.group->replicateMeshDims);
    return coord.isEmpty() ? QStringLiteral("the single owner replica")
                           : QStringLiteral("the owner replica (%1)").arg(coord);
}

// "out.reversed_ranks (ranks 0, 1) ends up wrong: see Wrong rows": the
// step's faults, where the view that shows them is `view`.
QString endsUpWrong(const std::vector<StepFault>& faults, const QString& view) {
    return QStringLiteral("%1 %2 up wrong: see %3")
        .arg(faultNamesText(faults),
             faults.size() == 1 ? QStringLiteral("ends") : QStringLiteral("end"), view);
}

// " But … ends up wrong: see Verification." after a phase's reason, or nothing.
QString faultTail(const Context& c) {
    if (c.faults.empty()) return {};
    const bool gathered = std::any_of(c.faults.begin(), c.faults.end(),
                                      [](const StepFault& f) { return f.gathered; });
    return QStringLiteral(" But ") +
           endsUpWrong(c.faults,
                       gathered ? QStringLiteral("Wrong rows") : QStringLiteral("Verification")) +
           QLatin1Char('.');
}

QString gatherWhy(const Context& c) {
    const auto n = static_cast<double>(c.event.groupRanks.size());
    // The all-gather promises every member the full tensors; where
    // verification found a gathered copy wrong it must not claim it.
    const QString outcome =
        c.faults.empty()
            ? QStringLiteral("so every rank of the group ends up with the full tensors")
            : QStringLiteral(
                  "meant to leave every rank of the group with the full tensors, "
                  "but ") +
                  endsUpWrong(c.faults, QStringLiteral("Wrong rows"));
    QString why = QStringLiteral(
                      "The shard group along %1 (%2) all-gathers the owned shards of %3: "
                      "each rank packs its shards of %4 into one slot (%5; each param aligned "
                      "to %6 B) and receives the others' slots, %7. %8 owns them in this "
                      "batch, and Newton–Schulz needs the whole matrix: ")
                      .arg(c.dim, ranksText(c.event.groupRanks), batchText(c), c.params,
                           sizeText(c, n > 0 ? c.size / n : 0))
                      .arg(c.plan.alignmentBytes)
                      .arg(outcome, sentenceStart(ownerText(c)));
    QString compute = computeText(c);
    why += compute.isEmpty() ? QStringLiteral("the shard-compute rank runs it.") : compute + '.';
    if (c.group && c.group->shardMeshDims.size() > 1)
        why += QStringLiteral(
                   " The params are sharded over %1 mesh dims, so the gather runs "
                   "one all-gather per dim; this one is along %2.")
                   .arg(c.group->shardMeshDims.size())
                   .arg(c.dim);
    return why;
}

QString updateWhy(const Context& c, int root) {
    const QString tail =
        QStringLiteral(
            " along %1 to %2, the rest of its shard group. Every member slices the "
            "rows of its own shard out of the update and applies param -= lr · "
            "update, so no other rank repeats the work (%3).")
            .arg(c.dim, ranksText(othersThan(c.event.groupRanks, root)), batchText(c));
    bool computed = true;
    for (int p : c.event.label.params) computed = computed && computeRankOf(c, p) == root;
    if (!computed)
        return QStringLiteral(
                   "Rank %1 holds the Newton–Schulz update of %2, computed in its shard "
                   "group and passed to it earlier in this hierarchical broadcast "
                   "(innermost shard dim first), and forwards the fp32 update (%3)")
                   .arg(root)
                   .arg(c.params, sizeText(c, c.size)) +
               tail;
    return QStringLiteral(
               "Rank %1 ran Newton–Schulz on the full %2 (the plan picked its shard "
               "coordinate to compute it) and broadcasts the fp32 update (%3)")
               .arg(root)
               .arg(c.params, sizeText(c, c.size)) +
           tail;
}

// What all members of the step put on the wire together.
double wireBytes(const RunStep& step, const Trace& trace) {
    double sum = 0;
    for (int e : step.events)
        sum += static_cast<double>(trace.events[static_cast<size_t>(e)].bytes);
    return sum;
}

// The all-to-all strategy's shard group, its mesh dims flattened: "dp_shard" or "dp_shard × tp".
QString shardDimsText(const Context& c) {
    if (!c.mesh || !c.group || c.group->shardMeshDims.empty()) return c.dim;
    QStringList names;
    for (int d : c.group->shardMeshDims)
        names << QString::fromStdString(c.mesh->dimNames[static_cast<size_t>(d)]);
    return names.join(QStringLiteral(" × "));
}

// What this event's rank sends the others of an all_to_all_v (its own block stays).
struct PeerSends {
    int64_t bytes = 0;
    int peers = 0;
};
PeerSends peerSends(const Context& c) {
    PeerSends out;
    const auto& ranks = c.event.groupRanks;
    const auto& sent = c.event.label.peerBytes;
    for (size_t q = 0; q < sent.size() && q < ranks.size(); ++q) {
        if (ranks[q] == c.event.rank || sent[q] == 0) continue;
        out.bytes += sent[q];
        ++out.peers;
    }
    return out;
}

// "rank 0 sends to 2 of its 3 peers, 1.0 MiB in all", from the label's peer bytes (or
// the event's wire bytes when the trace has none).
QString peerSendText(const Context& c) {
    const PeerSends sends = peerSends(c);
    const auto others = static_cast<int>(c.event.groupRanks.size()) - 1;
    if (c.event.label.peerBytes.empty())
        return QStringLiteral("rank %1 sends the others %2")
            .arg(c.event.rank)
            .arg(sizeText(c, double(c.event.bytes)));
    return QStringLiteral("rank %1 sends to %2 of its %3 %4, %5 in all")
        .arg(c.event.rank)
        .arg(sends.peers)
        .arg(others)
        .arg(others == 1 ? QStringLiteral("peer") : QStringLiteral("peers"))
        .arg(sizeText(c, double(sends.bytes)));
}

QString exchangeGatherWhy(const Context& c) {
    QString why =
        QStringLiteral(
            "All-to-all strategy: each of the %1 ranks of the %2 shard group (%3) sends "
            "the rank computing each param of %4 only its own piece of it, in one "
            "alltoallv: %5 (each piece aligned to %6 B; a piece of a param it computes "
            "itself stays). No member receives a matrix it does not compute. The computing "
            "ranks assemble the full matrices of %7: ")
            .arg(c.event.groupRanks.size())
            .arg(shardDimsText(c), ranksText(c.event.groupRanks), batchText(c), peerSendText(c))
            .arg(c.plan.alignmentBytes)
            .arg(c.params);
    const QString compute = computeText(c);
    return why + (compute.isEmpty() ? QStringLiteral("the shard-compute ranks run it.")
                                    : compute + QLatin1Char('.'));
}

QString exchangeReturnWhy(const Context& c) {
    return QStringLiteral(
               "All-to-all strategy: the rank that ran Newton–Schulz on each param of %1 "
               "sends each member of the %2 shard group (%3) back only its fp32 slice of "
               "the update, in one alltoallv: %4 (a slice of its own stays). Every member "
               "applies param -= lr · update to its own shard of %5, so no member "
               "receives an update it does not hold.")
        .arg(batchText(c), shardDimsText(c), ranksText(c.event.groupRanks), peerSendText(c),
             c.params);
}

// Is `rank` in the replica that owns the collective's params (its reduced
// replicate coordinate is the owner's)? Otherwise it received them earlier in
// the hierarchical broadcast and passes them on.
bool inOwnerReplica(const Context& c, int rank) {
    if (!c.mesh || !c.group || !c.batch || c.event.label.params.empty()) return true;
    auto coord = c.mesh->coordinateOf(rank);
    auto owner = c.batch->owner.find(c.event.label.params.front());
    if (!coord || owner == c.batch->owner.end()) return true;
    return reducedReplicateCoord(*c.group, *c.batch, *coord) == owner->second;
}

QString replicaWhy(const Context& c, int root) {
    const QString receivers = ranksText(othersThan(c.event.groupRanks, root));
    const QString tail =
        QStringLiteral(
            " along %1 to %2, the other replicas of that piece: they receive the new "
            "parameters instead of computing them, and spend their own compute on "
            "the params they own (%3).")
            .arg(c.dim, receivers, batchText(c));
    if (!inOwnerReplica(c, root))
        return QStringLiteral(
                   "Rank %1 received the updated %2 from %3 earlier in this "
                   "hierarchical broadcast (innermost replicate dim first) and "
                   "forwards it (%4)")
                   .arg(root)
                   .arg(c.params, ownerText(c), sizeText(c, c.size)) +
               tail;
    return QStringLiteral(
               "Rank %1, in %2, has applied the update to its piece of %3 and "
               "broadcasts the updated values (%4)")
               .arg(root)
               .arg(ownerText(c), c.params, sizeText(c, c.size)) +
           tail;
}

// "an all_reduce that", "a broadcast that".
QString article(const std::string& op) {
    const QString name = QString::fromStdString(op);
    return (name.startsWith(QLatin1Char('a')) ? QStringLiteral("an ") : QStringLiteral("a ")) +
           name + QStringLiteral(" that");
}

QString tpOpMeaning(const std::string& op) {
    const auto known = collectiveOpNamed(op);
    if (!known) return QStringLiteral("moves the activation");
    const std::string_view meaning = collectiveOpInfo(*known).meaning;
    return QString::fromUtf8(meaning.data(), static_cast<qsizetype>(meaning.size()));
}

QString tpWhy(const Context& c) {
    const int t = c.event.label.tpTransition;
    if (t < 0 || static_cast<size_t>(t) >= c.scenario.tpTransitions.size()) return {};
    const TpTransition& spec = c.scenario.tpTransitions[static_cast<size_t>(t)];
    QStringList src, dst;
    for (const Placement& p : spec.src) src << QString::fromStdString(p.toString());
    for (const Placement& p : spec.dst) dst << QString::fromStdString(p.toString());
    QString path = QStringLiteral("the generic redistribution (fallback)");
    if (static_cast<size_t>(t) < c.plan.tpTransitions.size())
        if (const TpGroupDecision* g =
                c.plan.tpTransitions[static_cast<size_t>(t)].groupOf(c.event.rank);
            g && g->runs == TpPath::Lowered && g->op)
            path = QStringLiteral("its lowered op %1")
                       .arg(QString::fromStdString(std::string(tpLoweredOpName(*g->op))));
    return QStringLiteral(
               "TP transition %1 \"%2\" turns [%3] into [%4]: the TP group along %5 "
               "(%6) runs %7: %8 %9 (buffer: %10).")
        .arg(t)
        .arg(QString::fromStdString(spec.name), src.join(QStringLiteral(", ")),
             dst.join(QStringLiteral(", ")), c.dim, ranksText(c.event.groupRanks), path,
             article(c.event.op), tpOpMeaning(c.event.op), sizeText(c, c.size));
}

}  // namespace

QString ranksText(const std::vector<int>& ranks) {
    QStringList parts;
    for (int r : ranks) parts << QString::number(r);
    return (ranks.size() == 1 ? QStringLiteral("rank ") : QStringLiteral("ranks ")) +
           parts.join(QStringLiteral(", "));
}

QString paramNamesText(const std::vector<int>& params, const Scenario& scenario) {
    constexpr size_t kShown = 8;
    QStringList names;
    for (size_t i = 0; i < params.size() && i < kShown; ++i)
        if (params[i] >= 0 && static_cast<size_t>(params[i]) < scenario.params.size())
            names << QString::fromStdString(scenario.params[static_cast<size_t>(params[i])].name);
    QString text = names.join(QStringLiteral(", "));
    if (params.size() > kShown) text += QStringLiteral(" and %1 more").arg(params.size() - kShown);
    return text.isEmpty() ? QStringLiteral("no params") : text;
}

QString collectiveIdText(int64_t seq) {
    return qs(collectiveId(seq));
}

QString collectiveBytesText(double bytes, const CollectiveLabel& label, const RealScale* real,
                            const QString& what) {
    QString text = qs(humanBytes(bytes)) + what;
    if (!real || !real->shrunk()) return text;
    text += QStringLiteral(" in the shrunk run");
    if (auto size = real->realBytes(label, bytes))
        text += QStringLiteral(" (≈ %1%2 at real size)").arg(qs(humanBytes(*size)), what);
    return text;
}

// "Verification found this step's result wrong: the gathered
// out.reversed_ranks on ranks 0, 1: rank 0 expected rows 0..3 got rows
// 4..7; …", one sentence per fault.
QString faultText(const std::vector<StepFault>& faults, const RealScale* real) {
    if (faults.empty()) return {};
    QStringList parts;
    for (const StepFault& f : faults) {
        const QString what = f.tpTransition >= 0 ? QStringLiteral("the output of TP transition %1")
                             : f.gathered        ? QStringLiteral("the gathered %1")
                                                 : QStringLiteral("%1 after the step");
        const QString where =
            f.ranks.empty() ? QString() : QStringLiteral(" on %1").arg(ranksText(f.ranks));
        parts << QStringLiteral("%1%2: %3.").arg(what.arg(f.name), where, f.text);
    }
    // A shrunk run's rows are its tensors' (a 8,192-row weight has 72 at 1/113):
    // said, or "rows 16..19" reads as rows of the real weight.
    const QString rows =
        real && real->shrunk()
            ? QStringLiteral(" Rows are the shrunk run's: every dim about 1/%1 of the real one.")
                  .arg(real->factor)
            : QString();
    return QStringLiteral("Verification found this step's result wrong: ") +
           parts.join(QLatin1Char(' ')) + rows;
}

StepCaption stepCaption(const RunStep& step, const Trace& trace, const Scenario& scenario,
                        const Plan& plan, const RealScale* real,
                        const std::vector<StepFault>* faults) {
    if (step.events.empty()) return {};
    const TraceEvent& e = trace.events[static_cast<size_t>(step.events.front())];
    Context c{scenario, plan, e, step, nullptr, nullptr, nullptr, {}, {}, 0, real, {}};
    if (faults) c.faults = *faults;
    c.mesh = scenario.findMesh(e.label.mesh);
    c.group = groupById(plan, e.label.group);
    if (c.group && e.label.batch >= 0 &&
        static_cast<size_t>(e.label.batch) < c.group->batches.size())
        c.batch = &c.group->batches[static_cast<size_t>(e.label.batch)];
    c.dim = c.mesh && e.label.meshDim >= 0 && e.label.meshDim < c.mesh->ndim()
                ? QString::fromStdString(c.mesh->dimNames[static_cast<size_t>(e.label.meshDim)])
                : QStringLiteral("the world");
    c.params = paramNamesText(e.label.params, scenario);
    c.size = collectiveSize(step, trace);
    const auto n = static_cast<double>(e.groupRanks.size());
    const bool gather = e.op == "all_gather" || e.op == "all_gather_v";
    const bool exchange = e.op == "all_to_all_v";
    // An alltoallv runs over the shard group with its mesh dims flattened:
    // no one mesh dim, and no one buffer size (each member sends its own blocks).
    const QString where =
        exchange ? QStringLiteral("%1 (shard group, mesh dims flattened)").arg(shardDimsText(c))
                 : QStringLiteral("%1 (mesh dim %2)").arg(c.dim).arg(e.label.meshDim);
    StepCaption caption;
    caption.headline =
        QStringLiteral("%1 (%2) · %3 · %4 %5 · %6 · %7")
            .arg(qs(collectiveName(step, trace)), collectiveIdText(step.seq),
                 ranksText(e.groupRanks), QString::fromStdString(e.label.mesh), where)
            .arg(exchange ? collectiveBytesText(wireBytes(step, trace), e.label, real,
                                                QStringLiteral(" sent in all"))
                 // A rank's block, and to how many it goes: the rows' "sent" is
                 // the block times the others (a new user found them 7x apart).
                 : gather && n > 0
                     ? collectiveBytesText(c.size / n, e.label, real,
                                           QStringLiteral(" block per rank")) +
                           QStringLiteral(", sent to each of %1 others").arg(n - 1)
                     : collectiveBytesText(c.size, e.label, real, QStringLiteral(" buffer")))
            .arg(!e.label.params.empty() ? c.params
                 : e.label.tpTransition >= 0 &&
                         static_cast<size_t>(e.label.tpTransition) < scenario.tpTransitions.size()
                     ? QString::fromStdString(
                           scenario.tpTransitions[static_cast<size_t>(e.label.tpTransition)].name)
                     : QString());
    const int root = rootOf(c, trace);
    if (exchange && e.label.phase == "gather")
        caption.why = exchangeGatherWhy(c) + faultTail(c);
    else if (exchange && e.label.phase == "update-broadcast")
        caption.why = exchangeReturnWhy(c) + faultTail(c);
    else if (e.label.phase == "gather")
        caption.why = gatherWhy(c);  // says it in place of "every rank ends up with …"
    else if (e.label.phase == "update-broadcast")
        caption.why = updateWhy(c, root) + faultTail(c);
    else if (e.label.phase == "replica-broadcast")
        caption.why = replicaWhy(c, root) + faultTail(c);
    else if (e.label.phase == "tp")
        caption.why = tpWhy(c) + faultTail(c);
    else
        caption.why =
            QStringLiteral("A %1 of phase %2.")
                .arg(QString::fromStdString(e.op), QString::fromStdString(e.label.phase)) +
            faultTail(c);
    caption.faults = c.faults;
    caption.fault = faultText(c.faults, real);
    return caption;
}

}  // namespace hsdp
