// SPDX-License-Identifier: Apache-2.0
#include "derived/plan/edit_error_text.h"

#include <QStringList>

#include "derived/plan/edit_fields.h"

namespace hsdp {

namespace {

bool inside(const QString& pointer, const QString& field) {
    return pointer == field || pointer.startsWith(field + QLatin1Char('/'));
}

// "/1/0" -> " item 2.1": list positions, counted from 1 as people do.
QString itemSuffix(const QString& rest) {
    QStringList items;
    for (const QString& token : rest.split(QLatin1Char('/'), Qt::SkipEmptyParts)) {
        bool number = false;
        int index = token.toInt(&number);
        items << (number ? QString::number(index + 1) : token);
    }
    return items.isEmpty() ? QString() : QStringLiteral(" item ") + items.join(QLatin1Char('.'));
}

QString unescapeToken(QString token) {
    return token.replace(QStringLiteral("~1"), QStringLiteral("/"))
        .replace(QStringLiteral("~0"), QStringLiteral("~"));
}

// The fields of the panel's form: meshes and options, labelled as there.
QString formFieldLabel(const Json& document, const QString& pointer) {
    for (const MeshFields& mesh : meshFields(document))
        for (const EditField& field : mesh.fields)
            if (inside(pointer, field.pointer))
                return QStringLiteral("Mesh %1 · %2").arg(mesh.name, field.label) +
                       itemSuffix(pointer.mid(field.pointer.size()));
    for (const EditField& field : optionFields())
        if (inside(pointer, field.pointer)) return QStringLiteral("Options · ") + field.label;
    return {};
}

// A cell of the parameter table: the entry's name and the column.
QString paramFieldLabel(const Json& document, const QString& pointer) {
    for (const ParamEntry& entry : paramEntries(document)) {
        if (!inside(pointer, entry.pointer)) continue;
        QStringList rest =
            pointer.mid(entry.pointer.size()).split(QLatin1Char('/'), Qt::SkipEmptyParts);
        if (rest.isEmpty()) return entry.name;
        QString key = unescapeToken(rest.takeFirst());
        if (key == QLatin1String("shape")) key = QStringLiteral("Shape");
        if (key == QLatin1String("dtype")) key = QStringLiteral("Dtype");
        if (key == QLatin1String("placements")) key = QStringLiteral("Placements");
        return entry.name + QStringLiteral(" · ") + key + itemSuffix(rest.join(QLatin1Char('/')));
    }
    return {};
}

const Json* child(const Json* node, const QString& token) {
    if (node && node->is_array()) {
        bool number = false;
        const int index = token.toInt(&number);
        const bool valid = number && index >= 0 && static_cast<size_t>(index) < node->size();
        return valid ? &(*node)[static_cast<size_t>(index)] : nullptr;
    }
    if (!node || !node->is_object()) return nullptr;
    auto member = node->find(token.toStdString());
    return member == node->end() ? nullptr : &*member;
}

// A list element by its name if it has one, else by its position.
QString partLabel(const Json* parent, const Json* node, const QString& token) {
    if (!parent || !parent->is_array()) return token;
    if (node && node->is_object())
        if (auto name = node->find("name"); name != node->end() && name->is_string())
            return QStringLiteral("'%1'").arg(QString::fromStdString(name->get<std::string>()));
    return QStringLiteral("item %1").arg(token.toInt() + 1);
}

// Any other place: its keys, a named list element by its name.
QString genericLabel(const Json& document, const QString& pointer) {
    QStringList parts;
    const Json* node = &document;
    for (const QString& raw : pointer.split(QLatin1Char('/'), Qt::SkipEmptyParts)) {
        const QString token = unescapeToken(raw);
        const Json* next = child(node, token);
        parts << partLabel(node, next, token);
        node = next;
    }
    return parts.isEmpty() ? QStringLiteral("the scenario") : parts.join(QStringLiteral(" · "));
}

}  // namespace

QString fieldLabel(const Json& document, const QString& pointer) {
    QString label = formFieldLabel(document, pointer);
    if (label.isEmpty()) label = paramFieldLabel(document, pointer);
    return label.isEmpty() ? genericLabel(document, pointer) : label;
}

QString editErrorText(const Json& document, const QString& edited, const QString& errorPath,
                      const QString& problem) {
    const QString at = fieldLabel(document, errorPath);
    if (edited.isEmpty() || inside(errorPath, edited)) return at + QStringLiteral(": ") + problem;
    return fieldLabel(document, edited) + QStringLiteral(": with this value, ") + at +
           QStringLiteral(": ") + problem;
}

}  // namespace hsdp
