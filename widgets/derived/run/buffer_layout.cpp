// SPDX-License-Identifier: Apache-2.0
#include "derived/run/buffer_layout.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "collectives/fused_gather.h"
#include "plan/plan.h"
#include "run/real_size.h"
#include "types/scenario.h"

namespace hsdp {

namespace {

// An alltoallv member that sends nothing still receives: its event stays.
bool movesBuffer(const TraceEvent& e) {
    return (!e.label.segments.empty() || e.op == "all_to_all_v") &&
           (e.label.phase == "gather" || e.label.phase == "update-broadcast" ||
            e.label.phase == "replica-broadcast");
}

bool holds(const std::vector<int>& params, int param) {
    return std::find(params.begin(), params.end(), param) != params.end();
}

int64_t slotEnd(const std::vector<BufferSegment>& segments) {
    int64_t end = 0;
    for (const auto& s : segments) end = std::max(end, s.offset + s.length + s.padding);
    return end;
}

SlotRow slotOf(const TraceEvent* event, int rank) {
    SlotRow row;
    row.rank = rank;
    if (!event) return row;
    row.segments = event->label.segments;
    row.slotBytes = slotEnd(row.segments);
    return row;
}

const Group* groupWithId(const Plan& plan, int id) {
    for (const auto& g : plan.groups)
        if (g.id == id) return &g;
    return nullptr;
}

std::vector<int64_t> runShape(const RunResult& run, const ParamSpec& spec) {
    for (const auto& p : run.params)
        if (p.index == spec.index && !p.shapeRun.empty()) return p.shapeRun;
    return spec.shape;
}

std::optional<TensorCut> cutOf(const RunData& data, const BufferLayout& layout, int param) {
    const Scenario& scenario = *data.plan.scenario;
    const Group* group = groupWithId(*data.plan.plan, layout.group);
    if (!group || param < 0 || size_t(param) >= scenario.params.size()) return std::nullopt;
    const ParamSpec& spec = scenario.params[size_t(param)];
    const Mesh* mesh = scenario.findMesh(layout.mesh);
    if (!spec.placements || !mesh) return std::nullopt;
    auto axis = std::find_if(group->layout.shardAxes.begin(), group->layout.shardAxes.end(),
                             [&](const auto& a) { return a.first == layout.meshDim; });
    auto coord = mesh->coordinateOf(layout.rank);
    if (axis == group->layout.shardAxes.end() || !coord) return std::nullopt;
    TensorCut cut;
    cut.param = param;
    cut.tensorDim = axis->second;
    const AxisRows rows = gatherAxisRows(runShape(*data.run, spec), *spec.placements, mesh->shape,
                                         *coord, layout.meshDim, axis->second);
    cut.target = rows.target;
    for (const auto& slot : layout.memberSlots) {
        RowCut member;
        member.rank = slot.rank;
        member.coordinate = mesh->coordinateOf(slot.rank).value().at(size_t(layout.meshDim));
        member.rows = rows.members.at(size_t(member.coordinate));
        for (const auto& s : slot.segments)
            if (s.param == param) member.segment = s;
        cut.members.push_back(std::move(member));
    }
    return cut;
}

}  // namespace

std::vector<BufferCollective> bufferCollectives(const RunResult& run) {
    std::map<int64_t, std::vector<const TraceEvent*>> bySeq;
    for (const auto& e : run.trace.events)
        if (movesBuffer(e)) bySeq[e.seq].push_back(&e);
    std::vector<BufferCollective> out;
    for (const auto& [seq, events] : bySeq) {
        BufferCollective c;
        c.seq = seq;
        c.event = events.front();
        for (int r : c.event->groupRanks) {
            auto it = std::find_if(events.begin(), events.end(),
                                   [&](const TraceEvent* e) { return e->rank == r; });
            c.members.push_back(it == events.end() ? nullptr : *it);
        }
        out.push_back(std::move(c));
    }
    return out;
}

int pickCollective(const std::vector<BufferCollective>& collectives, const SelectionState& state) {
    const int focus = state.params.empty() ? -1 : state.params.front();
    auto first = [&](auto&& fits) {
        for (size_t i = 0; i < collectives.size(); ++i)
            if (fits(collectives[i])) return int(i);
        return -1;
    };
    if (state.collective >= 0) {
        int i = first([&](const BufferCollective& c) { return c.seq == state.collective; });
        if (i >= 0) return i;
    }
    if (state.group >= 0 && state.batch >= 0) {
        int i = first([&](const BufferCollective& c) {
            const auto& l = c.event->label;
            return c.isGather() && l.group == state.group && l.batch == state.batch &&
                   (focus < 0 || holds(l.params, focus));
        });
        if (i >= 0) return i;
    }
    if (focus < 0) return -1;
    return first([&](const BufferCollective& c) {
        return c.isGather() && holds(c.event->label.params, focus);
    });
}

int64_t BufferLayout::widestSlot() const {
    if (exchange) return std::max(exchange->sendBytes(), exchange->recvBytes());
    int64_t widest = send.slotBytes;
    for (const auto& s : memberSlots) widest = std::max(widest, s.slotBytes);
    return widest;
}

int BufferLayout::colourOf(int param) const {
    auto it = std::find(params.begin(), params.end(), param);
    return it == params.end() ? -1 : colours[size_t(it - params.begin())];
}

std::string BufferLayout::nameOf(int param) const {
    auto it = std::find(params.begin(), params.end(), param);
    return it == params.end() ? "param " + std::to_string(param)
                              : paramNames[size_t(it - params.begin())];
}

namespace {

// A param's role: its name without the numbers (layer and expert indices).
std::string roleOf(const std::string& name) {
    std::string role;
    for (char c : name)
        if (!std::isdigit(static_cast<unsigned char>(c))) role += c;
    return role;
}

// Each name's role's position in order of first appearance.
std::vector<int> roleColours(const std::vector<std::string>& names) {
    std::vector<std::string> roles;
    std::vector<int> out;
    for (const std::string& name : names) {
        const std::string role = roleOf(name);
        auto it = std::find(roles.begin(), roles.end(), role);
        if (it == roles.end()) it = roles.insert(roles.end(), role);
        out.push_back(int(it - roles.begin()));
    }
    return out;
}

}  // namespace

BufferLayout bufferLayout(const RunData& data, const BufferCollective& collective, int rank,
                          int param) {
    BufferLayout layout;
    const TraceEvent& e = *collective.event;
    layout.seq = collective.seq;
    layout.mode = std::string(runModeName(data.run->mode));
    layout.op = e.op;
    layout.phase = e.label.phase;
    layout.mesh = e.label.mesh;
    layout.meshDim = e.label.meshDim;
    layout.group = e.label.group;
    layout.batch = e.label.batch;
    layout.groupRanks = e.groupRanks;
    layout.params = e.label.params;
    for (int p : layout.params)
        layout.paramNames.push_back(size_t(p) < data.plan.scenario->params.size()
                                        ? data.plan.scenario->params[size_t(p)].name
                                        : "param " + std::to_string(p));
    layout.colours = roleColours(layout.paramNames);
    auto member = std::find(e.groupRanks.begin(), e.groupRanks.end(), rank);
    if (member == e.groupRanks.end()) member = e.groupRanks.begin();
    layout.rank = *member;
    layout.send = slotOf(collective.members[size_t(member - e.groupRanks.begin())], layout.rank);
    for (size_t q = 0; q < e.groupRanks.size(); ++q)
        layout.memberSlots.push_back(slotOf(collective.members[q], e.groupRanks[q]));
    if (data.run->shrink) {
        layout.shrinkFactor = data.run->shrink->factor;
        layout.realRatio = realScale(*data.plan.scenario, data.run->shrink).realBytes(e.label, 1.0);
    }
    if (collective.isExchange()) {
        const TraceEvent* mine = collective.members[size_t(member - e.groupRanks.begin())];
        layout.exchange = exchangeLayout(data, e, mine, layout.rank);
        return layout;
    }
    if (collective.isGather()) {
        if (!holds(layout.params, param))
            param = layout.params.empty() ? -1 : layout.params.front();
        layout.cut = cutOf(data, layout, param);
    }
    return layout;
}

}  // namespace hsdp
