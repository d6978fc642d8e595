#pragma once

#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

#include "scenario/json_text.h"

namespace hsdp {

// The scenario values the what-if panel edits, each addressed by the JSON
// pointer the reader's errors use, and how each one reads and writes as text.
enum class FieldKind {
    Integers,     // "2, 4, 4" <-> [2, 4, 4]
    Names,        // "dp_replicate, dp_shard" <-> ["dp_replicate", "dp_shard"]
    Ranks,        // like Integers; empty text removes the key (default order)
    Placements,   // "R, _StridedShard(dim=0, sf=4)" <-> ["R", "_StridedShard(dim=0, sf=4)"]
    OptionalInt,  // "" removes the key (no cap / off), else an integer
    Int,          // an integer
    Flag,         // true / false
    Choice,       // one of `choices`
};

struct EditField {
    QString pointer;
    QString label;
    FieldKind kind = FieldKind::Int;
    QStringList choices;  // Choice only
    QString placeholder;  // what an empty field means
};

// A value as the panel shows it ("" for an absent key).
QString fieldText(FieldKind kind, const std::optional<Json>& value);

// The value a text stands for, or the reason it stands for none.
struct ParsedField {
    std::optional<Json> value;  // nullopt with an empty error: remove the key
    QString error;
    bool ok() const { return error.isEmpty(); }
};
ParsedField parseFieldText(FieldKind kind, const QString& text);

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
