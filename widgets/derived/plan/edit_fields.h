// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

#include "derived/plan/field_text.h"
#include "scenario/json_text.h"

namespace hsdp {

// The scenario values the what-if panel edits, each addressed by the JSON
// pointer the reader's errors use; field_text.h says how each reads and
// writes as text.
struct EditField {
    QString pointer;
    QString label;
    FieldKind kind = FieldKind::Int;
    QStringList choices;  // Choice only
    QString placeholder;  // what an empty field means
};

// One mesh's editable values: shape, dim names, rank order.
struct MeshFields {
    QString name;  // "main" for the single `mesh`
    std::vector<EditField> fields;
};
std::vector<MeshFields> meshFields(const Json& document);
std::vector<EditField> optionFields();

// One entry of the `params` list as written: a param, or a param inside a
// repeat block (editing it edits every repetition).
struct ParamEntry {
    QString pointer;      // of the entry object ("/params/1/params/0")
    QString name;         // as written, "{i}" included
    int repetitions = 1;  // product of the enclosing repeat counts
};
std::vector<ParamEntry> paramEntries(const Json& document);

}  // namespace hsdp
