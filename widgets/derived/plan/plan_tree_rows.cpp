// SPDX-License-Identifier: Apache-2.0
#include "derived/plan/plan_tree_rows.h"

#include <QLocale>
#include <QStringList>
#include <string>
#include <unordered_map>

namespace hsdp {

namespace {

QString str(const std::string& text) {
    return QString::fromStdString(text);
}

template <typename T>
QString listText(const std::vector<T>& values, const char* open = "[", const char* close = "]") {
    QStringList parts;
    for (const T& v : values) parts << QString::number(v);
    return QLatin1String(open) + parts.join(QStringLiteral(", ")) + QLatin1String(close);
}

// "0-3, 8-11": consecutive runs collapsed so 8,192-rank owners stay short.
QString rankRuns(const std::vector<int>& ranks) {
    QStringList runs;
    for (size_t i = 0; i < ranks.size();) {
        size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
        runs << (i == j ? QString::number(ranks[i])
                        : QStringLiteral("%1-%2").arg(ranks[i]).arg(ranks[j]));
        i = j + 1;
        if (runs.size() == 6 && i < ranks.size()) {
            runs << QStringLiteral("…");
            break;
        }
    }
    return runs.join(QStringLiteral(", "));
}

class Builder {
public:
    Builder(const Scenario& scenario, const Plan& plan, const PlanIndex& index)
        : scenario_(scenario), plan_(plan), index_(index) {
        rows_.paramNode.assign(scenario.params.size(), -1);
    }

    PlanTreeRows build() {
        for (const Mesh& mesh : scenario_.meshes) meshBranch(mesh);
        paramSection(QStringLiteral("No-comm parameters"), plan_.noCommParams);
        paramSection(QStringLiteral("Rejected parameters"), plan_.rejectedParams);
        // Only a scenario with AdamW params has the section: a Muon-only tree reads as before.
        if (hasAdamWParams(scenario_))
            paramSection(QStringLiteral("AdamW parameters, updated where they live"),
                         plan_.adamwParams);
        transitionSection();
        return std::move(rows_);
    }

private:
    int add(int parent, PlanNodeKind kind, const QString& name) {
        PlanTreeNode node;
        node.kind = kind;
        node.parent = parent;
        node.text[0] = name;
        node.filterText = name.toLower();
        int id = static_cast<int>(rows_.nodes.size());
        auto& siblings =
            parent < 0 ? rows_.roots : rows_.nodes[static_cast<size_t>(parent)].children;
        node.row = static_cast<int>(siblings.size());
        siblings.push_back(id);
        rows_.nodes.push_back(std::move(node));
        return id;
    }

    PlanTreeNode& at(int id) { return rows_.nodes[static_cast<size_t>(id)]; }

    void setNumber(int id, PlanTreeColumn column, qint64 value) {
        static const QLocale english(
            QLocale::English);  // 2,113,929,216 whatever the desktop's locale
        at(id).text[static_cast<size_t>(column)] = english.toString(value);
        at(id).sortKey[static_cast<size_t>(column)] = value;
    }

    void meshBranch(const Mesh& mesh) {
        QStringList dims;
        for (int d = 0; d < mesh.ndim(); ++d)
            dims << QStringLiteral("%1=%2").arg(str(mesh.dimNames.at(d))).arg(mesh.shape[d]);
        int id =
            add(-1, PlanNodeKind::Mesh,
                QStringLiteral("mesh %1  (%2)").arg(str(mesh.name), dims.join(QLatin1Char(' '))));
        for (size_t g = 0; g < plan_.groups.size(); ++g)
            if (plan_.groups[g].mesh == mesh.name) groupBranch(id, static_cast<int>(g), mesh);
    }

    void groupBranch(int parent, int g, const Mesh& mesh) {
        const Group& group = plan_.groups[static_cast<size_t>(g)];
        QStringList axes;
        for (const auto& [m, t] : group.layout.shardAxes)
            axes << QStringLiteral("%1→%2").arg(m).arg(t);
        QString name = QStringLiteral("group %1 · replicate %2 · shard %3")
                           .arg(group.id)
                           .arg(listText(group.replicateMeshDims), listText(group.shardMeshDims));
        QString layout =
            QStringLiteral("layout: ndim %1, shard axes [%2]%3")
                .arg(group.layout.tensorNdim)
                .arg(axes.join(QStringLiteral(", ")),
                     group.layout.isLast2dSharded ? QStringLiteral(", last-2d") : QString());
        int id = add(parent, PlanNodeKind::Group, name);
        at(id).group = g;
        at(id).text[static_cast<size_t>(PlanTreeColumn::Placements)] = layout;
        qint64 numel = 0;
        for (size_t b = 0; b < group.batches.size(); ++b) {
            numel += batchBranch(id, g, static_cast<int>(b), mesh);
        }
        setNumber(id, PlanTreeColumn::Numel, numel);
    }

    qint64 batchBranch(int parent, int g, int b, const Mesh& mesh) {
        const Batch& batch = plan_.groups[static_cast<size_t>(g)].batches[static_cast<size_t>(b)];
        int id = add(parent, PlanNodeKind::Batch,
                     QStringLiteral("batch %1 · %2 param%3%4")
                         .arg(b)
                         .arg(batch.params.size())
                         .arg(batch.params.size() == 1 ? QString() : QStringLiteral("s"),
                              batch.isShard ? QStringLiteral(" · gathered") : QString()));
        at(id).group = g;
        at(id).batch = b;
        setNumber(id, PlanTreeColumn::Numel, batch.numel);
        for (int p : batch.params) paramRow(id, p, &mesh);
        return batch.numel;
    }

    void paramSection(const QString& title, const std::vector<int>& params) {
        int id =
            add(-1, PlanNodeKind::Section, QStringLiteral("%1 (%2)").arg(title).arg(params.size()));
        for (int p : params)
            paramRow(id, p, scenario_.findMesh(scenario_.params.at(static_cast<size_t>(p)).mesh));
    }

    void paramRow(int parent, int p, const Mesh* mesh) {
        const ParamSpec& spec = scenario_.params.at(static_cast<size_t>(p));
        const ParamPlace& place = index_.params.at(static_cast<size_t>(p));
        int id = add(parent, PlanNodeKind::Param, str(spec.name));
        PlanTreeNode& node = at(id);
        node.param = p;
        node.group = place.group;
        node.batch = place.batch;
        if (!place.ownerRanks.empty())
            node.text[1] = listText(place.owner, "(", ")") + QStringLiteral(" → ranks ") +
                           rankRuns(place.ownerRanks);
        if (spec.isAdamW()) {  // no owner: every rank updates its own shard
            node.text[1] =
                QStringLiteral("none (AdamW)");  // its group row says why: updated where it lives
            node.filterText += QStringLiteral(" adamw");
        }
        setNumber(id, PlanTreeColumn::Numel, spec.numel());
        setNumber(id, PlanTreeColumn::Bytes, spec.numel() * dtypeSize(spec.dtype));
        node.text[4] = localShape(spec, mesh);
        node.text[5] =
            spec.placements ? pytorchPlacements(*spec.placements) : QStringLiteral("local tensor");
        diagnosticsOf(node, place);
        rows_.paramNode[static_cast<size_t>(p)] = id;
    }

    // Repeated layers share shape, placements and mesh: each distinct one is
    // laid out once (4,000 params of a 70B model have a dozen).
    QString localShape(const ParamSpec& spec, const Mesh* mesh) {
        if (!mesh) return QString();
        std::string key =
            mesh->name + '|' + (spec.placements ? placementsToString(*spec.placements) : "-");
        for (int64_t d : spec.shape) key += ',' + std::to_string(d);
        auto [it, isNew] = localShapes_.try_emplace(key);
        if (!isNew) return it->second;
        try {
            it->second = localShapeText(spec, *mesh);
        } catch (const std::exception&) {  // a placement the planner rejected
            it->second = QStringLiteral("—");
        }
        return it->second;
    }

    void diagnosticsOf(PlanTreeNode& node, const ParamPlace& place) {
        QStringList codes;
        for (int d : place.diagnostics) {
            const Diagnostic& diagnostic = plan_.diagnostics[static_cast<size_t>(d)];
            if (!codes.contains(str(diagnostic.code))) codes << str(diagnostic.code);
            node.hasError |= diagnostic.severity == Severity::Error;
            node.hasWarning |= diagnostic.severity == Severity::Warning;
        }
        node.text[6] = codes.join(QStringLiteral(", "));
        node.filterText += QLatin1Char(' ') + node.text[6].toLower();
    }

    void transitionSection() {
        int id = add(-1, PlanNodeKind::Section,
                     QStringLiteral("TP transitions (%1)").arg(plan_.tpTransitions.size()));
        for (size_t t = 0; t < plan_.tpTransitions.size(); ++t)
            transitionRow(id, static_cast<int>(t));
    }

    // Name and index only: the TP part of the Plan is being retyped, keep
    // everything that reads it in this one function.
    void transitionRow(int parent, int t) {
        const TpPlan& tp = plan_.tpTransitions[static_cast<size_t>(t)];
        int row = add(parent, PlanNodeKind::TpTransition,
                      QStringLiteral("#%1 %2").arg(tp.index).arg(str(tp.name)));
        at(row).transition = t;
    }

    const Scenario& scenario_;
    const Plan& plan_;
    const PlanIndex& index_;
    PlanTreeRows rows_;
    std::unordered_map<std::string, QString> localShapes_;
};

}  // namespace

PlanTreeRows buildPlanTreeRows(const Scenario& scenario, const Plan& plan, const PlanIndex& index) {
    return Builder(scenario, plan, index).build();
}

}  // namespace hsdp
