// SPDX-License-Identifier: Apache-2.0
#include "autosave/json_changes.h"

#include "derived/plan/scenario_document.h"

namespace hsdp {

namespace {

bool isListOfObjects(const Json& value) {
    if (!value.is_array() || value.empty()) return false;
    for (const Json& item : value)
        if (!item.is_object()) return false;
    return true;
}

// Whether the walk goes inside both values rather than replacing one by the other.
bool comparesInside(const Json& before, const Json& after) {
    if (before.is_object() && after.is_object()) return true;
    return isListOfObjects(before) && isListOfObjects(after) && before.size() == after.size();
}

void collect(const Json& before, const Json& after, const QString& pointer,
             std::vector<JsonChange>& out) {
    if (before == after) return;
    if (!comparesInside(before, after)) {
        out.push_back({pointer, before, after});
        return;
    }
    if (before.is_array()) {
        for (size_t i = 0; i < before.size(); ++i)
            collect(before[i], after[i], pointer + QLatin1Char('/') + QString::number(i), out);
        return;
    }
    for (const auto& [key, value] : after.items()) {
        const QString at =
            pointer + QLatin1Char('/') + jsonPointerToken(QString::fromStdString(key));
        if (auto found = before.find(key); found != before.end())
            collect(*found, value, at, out);
        else
            out.push_back({at, std::nullopt, value});
    }
    for (const auto& [key, value] : before.items())
        if (!after.contains(key))
            out.push_back(
                {pointer + QLatin1Char('/') + jsonPointerToken(QString::fromStdString(key)), value,
                 std::nullopt});
}

bool isEmptyObject(const Json& value) {
    return value.is_object() && value.empty();
}

// Every member of `a` that is not an empty object is in `b`, the same.
bool membersIn(const Json& a, const Json& b) {
    for (const auto& [key, value] : a.items()) {
        if (isEmptyObject(value)) continue;
        const auto found = b.find(key);
        if (found == b.end() || !sameDocument(value, *found)) return false;
    }
    return true;
}

}  // namespace

bool sameDocument(const Json& a, const Json& b) {
    if (a.is_object() && b.is_object()) return membersIn(a, b) && membersIn(b, a);
    if (a.is_array() && b.is_array()) {
        if (a.size() != b.size()) return false;
        for (size_t i = 0; i < a.size(); ++i)
            if (!sameDocument(a[i], b[i])) return false;
        return true;
    }
    return a == b;
}

std::vector<JsonChange> jsonChanges(const Json& before, const Json& after) {
    std::vector<JsonChange> changes;
    collect(before, after, QString(), changes);
    return changes;
}

QString jsonChangeText(const std::optional<Json>& value, int maxChars) {
    if (!value) return QObject::tr("(absent)");
    QString text =
        QString::fromStdString(value->dump(-1, ' ', false, Json::error_handler_t::replace));
    if (text.size() > maxChars) text = text.left(std::max(0, maxChars - 1)) + QChar(0x2026);
    return text;
}

}  // namespace hsdp
