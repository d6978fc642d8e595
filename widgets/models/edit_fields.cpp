#include "models/edit_fields.h"

#include "models/scenario_document.h"

namespace hsdp {

namespace {

// Splits at commas outside parentheses: "_StridedShard(dim=0, sf=4)" is one item.
QStringList splitTopLevel(const QString& text) {
    QStringList items;
    QString current;
    int depth = 0;
    for (QChar c : text) {
        if (c == QLatin1Char('(') || c == QLatin1Char('[')) ++depth;
        if (c == QLatin1Char(')') || c == QLatin1Char(']')) --depth;
        if (c == QLatin1Char(',') && depth <= 0) {
            items << current.trimmed();
            current.clear();
        } else {
            current += c;
        }
    }
    if (!current.trimmed().isEmpty() || !items.isEmpty()) items << current.trimmed();
    return items;
}

// "[2, 4]" and "2, 4" both read as a list; so do "2 4" and "2x4".
QString stripBrackets(QString text) {
    text = text.trimmed();
    if (text.startsWith(QLatin1Char('[')) && text.endsWith(QLatin1Char(']')))
        text = text.mid(1, text.size() - 2);
    return text;
}

ParsedField parseInteger(const QString& text) {
    bool ok = false;
    qlonglong value = text.trimmed().toLongLong(&ok);
    if (!ok) return {std::nullopt, QStringLiteral("'%1' is not an integer").arg(text.trimmed())};
    return {Json(static_cast<int64_t>(value)), {}};
}

ParsedField parseIntegers(const QString& text) {
    QString body = stripBrackets(text);
    body.replace(QLatin1Char('x'), QLatin1Char(',')).replace(QLatin1Char(' '), QLatin1Char(','));
    Json list = Json::array();
    for (const QString& item : body.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        ParsedField one = parseInteger(item);
        if (!one.ok()) return one;
        list.push_back(*one.value);
    }
    return {list, {}};
}

ParsedField parseStrings(const QString& text) {
    Json list = Json::array();
    for (QString item : splitTopLevel(stripBrackets(text))) {
        if (item.size() >= 2 && item.startsWith(QLatin1Char('"')) &&
            item.endsWith(QLatin1Char('"')))
            item = item.mid(1, item.size() - 2);
        list.push_back(item.toStdString());
    }
    return {list, {}};
}

QString joinedItems(const Json& list) {
    QStringList items;
    for (const Json& item : list)
        items << (item.is_string() ? QString::fromStdString(item.get<std::string>())
                                   : QString::fromStdString(item.dump()));
    return items.join(QStringLiteral(", "));
}

// Nested rank lists (as DeviceMesh prints them) read flat, in row-major order.
void flatten(const Json& value, Json& out) {
    if (!value.is_array()) {
        out.push_back(value);
        return;
    }
    for (const Json& item : value) flatten(item, out);
}

}  // namespace

QString fieldText(FieldKind kind, const std::optional<Json>& value) {
    if (!value || value->is_null()) return {};
    switch (kind) {
        case FieldKind::Ranks: {
            Json flat = Json::array();
            flatten(*value, flat);
            return joinedItems(flat);
        }
        case FieldKind::Integers:
        case FieldKind::Names:
        case FieldKind::Placements:
            return value->is_array() ? joinedItems(*value) : QString::fromStdString(value->dump());
        case FieldKind::Flag:
            return value->is_boolean() && value->get<bool>() ? QStringLiteral("true")
                                                             : QStringLiteral("false");
        case FieldKind::Choice:
            return value->is_string() ? QString::fromStdString(value->get<std::string>())
                                      : QString::fromStdString(value->dump());
        case FieldKind::OptionalInt:
        case FieldKind::Int:
            return QString::fromStdString(value->dump());
    }
    return {};
}

ParsedField parseFieldText(FieldKind kind, const QString& text) {
    const QString trimmed = text.trimmed();
    switch (kind) {
        case FieldKind::Integers:
            return parseIntegers(trimmed);
        case FieldKind::Ranks:
            if (trimmed.isEmpty()) return {};
            return parseIntegers(trimmed);
        case FieldKind::Names:
        case FieldKind::Placements:
            return parseStrings(trimmed);
        case FieldKind::OptionalInt:
            if (trimmed.isEmpty()) return {};
            return parseInteger(trimmed);
        case FieldKind::Int:
            return parseInteger(trimmed);
        case FieldKind::Flag:
            return {Json(trimmed == QLatin1String("true")), {}};
        case FieldKind::Choice:
            return {Json(trimmed.toStdString()), {}};
    }
    return {};
}

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
                   {QStringLiteral("gloo"), QStringLiteral("nccl"), QStringLiteral("hccl")})};
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
