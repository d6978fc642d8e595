// SPDX-License-Identifier: Apache-2.0
#include "derived/plan/field_text.h"

#include <QRegularExpression>

#include "types/dtype.h"
#include "types/placement.h"

namespace hsdp {

namespace {

ParsedField failure(const QString& error) {
    return {std::nullopt, error};
}

QString itemLabel(qsizetype i, const QString& item) {
    return QStringLiteral("item %1, '%2',").arg(i + 1).arg(item);
}

// The list inside optional enclosing brackets; an unpaired bracket is an error.
QString listBody(const QString& text, QString& error) {
    const bool open = text.startsWith(QLatin1Char('['));
    const bool close = text.endsWith(QLatin1Char(']'));
    if (open && close) return text.mid(1, text.size() - 2).trimmed();
    if (open) error = QStringLiteral("'[' without a closing ']'");
    if (close) error = QStringLiteral("']' without an opening '['");
    return text;
}

// Splits at commas outside parentheses ("_StridedShard(dim=0, sf=4)" is one
// item). Every item must be non-empty: "2," and "2,,4" are errors, not [2]
// and [2, 4]. No items for an empty text.
QStringList splitItems(const QString& body, QString& error) {
    QStringList items;
    if (body.isEmpty()) return items;
    QString current;
    int depth = 0;
    for (QChar c : body) {
        if (c == QLatin1Char('(') || c == QLatin1Char('[')) ++depth;
        if (c == QLatin1Char(')') || c == QLatin1Char(']')) --depth;
        if (depth < 0) break;
        if (c == QLatin1Char(',') && depth == 0) {
            items << current.trimmed();
            current.clear();
        } else {
            current += c;
        }
    }
    items << current.trimmed();
    if (depth != 0) {
        error = QStringLiteral("unbalanced parentheses or brackets in '%1'").arg(body);
        return {};
    }
    for (qsizetype i = 0; i < items.size(); ++i)
        if (items[i].isEmpty()) {
            error = QStringLiteral("item %1 is empty (a comma too many?)").arg(i + 1);
            return {};
        }
    return items;
}

// Without commas "2 4" is a list too. ("2x4" is not: "0x10" would read as
// [0, 10].)
QStringList integerItems(const QString& body, QString& error) {
    if (body.contains(QLatin1Char(','))) return splitItems(body, error);
    if (body.isEmpty()) return {};
    static const QRegularExpression spaces(QStringLiteral("\\s+"));
    return body.split(spaces);
}

// The integer the whole of `item` spells, or why not ("" when it does).
QString integerError(const QString& item, int64_t& value) {
    bool ok = false;
    value = item.toLongLong(&ok);
    if (ok) return {};
    static const QRegularExpression digits(QStringLiteral("^[+-]?[0-9]+$"));
    return digits.match(item).hasMatch() ? QStringLiteral("is out of range")
                                         : QStringLiteral("is not an integer");
}

ParsedField parseInteger(const QString& text) {
    int64_t value = 0;
    QString error = integerError(text, value);
    if (!error.isEmpty()) return failure(QStringLiteral("'%1' %2").arg(text, error));
    return {Json(value), {}};
}

ParsedField parseIntegers(const QString& text) {
    QString error;
    const QString body = listBody(text, error);
    const QStringList items = error.isEmpty() ? integerItems(body, error) : QStringList();
    if (!error.isEmpty()) return failure(error);
    Json list = Json::array();
    for (qsizetype i = 0; i < items.size(); ++i) {
        int64_t value = 0;
        QString why = integerError(items[i], value);
        if (!why.isEmpty()) return failure(itemLabel(i, items[i]) + QLatin1Char(' ') + why);
        list.push_back(value);
    }
    return {list, {}};
}

// Items of a string list; "\"dp\"" reads as dp, a lone quote is an error.
ParsedField parseStrings(const QString& text, bool placements) {
    QString error;
    const QString body = listBody(text, error);
    const QStringList items = error.isEmpty() ? splitItems(body, error) : QStringList();
    if (!error.isEmpty()) return failure(error);
    Json list = Json::array();
    for (qsizetype i = 0; i < items.size(); ++i) {
        QString item = items[i];
        const bool open = item.startsWith(QLatin1Char('"'));
        const bool close = item.size() > 1 && item.endsWith(QLatin1Char('"'));
        if (open != close) return failure(itemLabel(i, item) + QStringLiteral(" has a lone quote"));
        if (open) item = item.mid(1, item.size() - 2).trimmed();
        if (item.isEmpty()) return failure(QStringLiteral("item %1 is empty").arg(i + 1));
        if (placements && !parsePlacement(item.toStdString()))
            return failure(itemLabel(i, item) +
                           QStringLiteral(" is not a placement (R, S(d), SS(d,k), P(op), or as "
                                          "PyTorch prints them: Replicate(), Shard(dim=d), "
                                          "_StridedShard(dim=d, sf=k), Partial(op))"));
        list.push_back(item.toStdString());
    }
    return {list, {}};
}

ParsedField parseFlag(const QString& text) {
    if (text == QLatin1String("true")) return {Json(true), {}};
    if (text == QLatin1String("false")) return {Json(false), {}};
    return failure(QStringLiteral("'%1' is not true or false").arg(text));
}

ParsedField parseChoice(const QString& text, const QStringList& choices) {
    if (choices.isEmpty() || choices.contains(text)) return {Json(text.toStdString()), {}};
    return failure(
        QStringLiteral("'%1' is not one of %2").arg(text, choices.join(QStringLiteral(", "))));
}

ParsedField parseDTypeText(const QString& text) {
    if (parseDType(text.toStdString())) return {Json(text.toStdString()), {}};
    return failure(QStringLiteral("'%1' is not a dtype (f32, bf16, f16, f64, float32, bfloat16, "
                                  "float16, float64, float, half, double, or torch.<name>)")
                       .arg(text));
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
        case FieldKind::DType:
            return value->is_string() ? QString::fromStdString(value->get<std::string>())
                                      : QString::fromStdString(value->dump());
        case FieldKind::OptionalInt:
        case FieldKind::Int:
            return QString::fromStdString(value->dump());
    }
    return {};
}

ParsedField parseFieldText(FieldKind kind, const QString& text, const QStringList& choices) {
    const QString trimmed = text.trimmed();
    switch (kind) {
        case FieldKind::Integers:
            return parseIntegers(trimmed);
        case FieldKind::Ranks:
            if (trimmed.isEmpty()) return {};
            return parseIntegers(trimmed);
        case FieldKind::Names:
            return parseStrings(trimmed, /*placements=*/false);
        case FieldKind::Placements:
            return parseStrings(trimmed, /*placements=*/true);
        case FieldKind::OptionalInt:
        case FieldKind::Int:
            if (trimmed.isEmpty()) return {};
            return parseInteger(trimmed);
        case FieldKind::Flag:
            return parseFlag(trimmed);
        case FieldKind::Choice:
            return parseChoice(trimmed, choices);
        case FieldKind::DType:
            return parseDTypeText(trimmed);
    }
    return {};
}

}  // namespace hsdp
