// SPDX-License-Identifier: Apache-2.0
#include "derived/plan/edit_fields.h"

#include "derived/plan/scenario_document.h"
#include "types/gather_strategy.h"

namespace hsdp {

std::vector<MeshFields> meshFields(const Json& document) {
    std::vector<MeshFields> meshes;
    auto add = [&](const QString& name, const QString& pointer) {
        meshes.push_back({name,
                          {{pointer + QStringLiteral("/shape"),
                            QObject::tr("Shape"),
                            FieldKind::Integers,
                            {},
                            {}},
                           {pointer + QStringLiteral("/dim_names"),
                            QObject::tr("Dim names"),
                            FieldKind::Names,
                            {},
                            {}},
                           {pointer + QStringLiteral("/ranks"),
                            QObject::tr("Rank order"),
                            FieldKind::Ranks,
                            {},
                            QObject::tr("default: 0, 1, 2, …")}}});
    };
    if (document.contains("mesh")) add(QStringLiteral("main"), QStringLiteral("/mesh"));
    if (auto it = document.find("meshes"); it != document.end() && it->is_object())
        for (const auto& [name, mesh] : it->items()) {
            QString key = QString::fromStdString(name);
            add(key, QStringLiteral("/meshes/") + jsonPointerToken(key));
        }
    return meshes;
}

namespace {

// The reader's names (types/gather_strategy.h), the default first.
QStringList gatherStrategyChoices() {
    QStringList names;
    for (auto option : {GatherStrategyOption::AllGather, GatherStrategyOption::AllToAll,
                        GatherStrategyOption::Auto})
        names << QString::fromUtf8(gatherStrategyOptionName(option).data(),
                                   qsizetype(gatherStrategyOptionName(option).size()));
    return names;
}

}  // namespace

std::vector<EditField> optionFields() {
    auto option = [](const char* key, const QString& label, FieldKind kind,
                     const QString& placeholder = {}, const QStringList& choices = {}) {
        return EditField{QStringLiteral("/options/") + QLatin1String(key), label, kind, choices,
                         placeholder};
    };
    return {option("hsdp_replica_count", QObject::tr("Replica count"), FieldKind::OptionalInt,
                   QObject::tr("off (replicate groups not split)")),
            option("auto_replica_count", QObject::tr("Auto-deduce replicas"), FieldKind::Flag),
            option("devices_per_node", QObject::tr("Devices per node"), FieldKind::Int,
                   QStringLiteral("8")),
            option("max_batch_numel", QObject::tr("Batch cap (numel)"), FieldKind::OptionalInt,
                   QObject::tr("no cap (one batch per group)")),
            option("alignment_bytes", QObject::tr("Alignment (bytes)"), FieldKind::Int,
                   QStringLiteral("512")),
            option("backend", QObject::tr("Backend"), FieldKind::Choice, {},
                   {QStringLiteral("gloo"), QStringLiteral("nccl"), QStringLiteral("hccl")}),
            // The default first: an absent option shows as the first choice.
            option("gather_strategy", QObject::tr("Gather strategy"), FieldKind::Choice, {},
                   gatherStrategyChoices()),
            // options.newton_schulz (its coefficients are edited in the file).
            option("newton_schulz/steps", QObject::tr("Newton-Schulz steps"), FieldKind::Int,
                   QStringLiteral("5")),
            option("newton_schulz/dtype", QObject::tr("Newton-Schulz dtype"), FieldKind::Choice, {},
                   {QStringLiteral("fp32"), QStringLiteral("bf16")})};
}

namespace {

void collectEntries(const Json& list, const QString& pointer, int repetitions,
                    std::vector<ParamEntry>& out) {
    if (!list.is_array()) return;
    for (size_t i = 0; i < list.size(); ++i) {
        const Json& entry = list[i];
        QString at = pointer + QLatin1Char('/') + QString::number(i);
        if (!entry.is_object()) continue;
        if (auto repeat = entry.find("repeat"); repeat != entry.end()) {
            int count = repeat->is_number_integer() ? repeat->get<int>() : 1;
            if (auto inner = entry.find("params"); inner != entry.end())
                collectEntries(*inner, at + QStringLiteral("/params"), repetitions * count, out);
            continue;
        }
        auto name = entry.find("name");
        out.push_back({at,
                       name != entry.end() && name->is_string()
                           ? QString::fromStdString(name->get<std::string>())
                           : QString(),
                       repetitions});
    }
}

}  // namespace

std::vector<ParamEntry> paramEntries(const Json& document) {
    std::vector<ParamEntry> entries;
    if (auto params = document.find("params"); params != document.end())
        collectEntries(*params, QStringLiteral("/params"), 1, entries);
    return entries;
}

}  // namespace hsdp
