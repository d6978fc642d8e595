// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QStringList>
#include <optional>

#include "scenario/json_text.h"

namespace hsdp {

// How each kind of what-if field reads and writes as text. Reading is
// strict: the whole text is one value, or an error names the bad part, so
// "8192, two" or "2," never silently stands for [8192] or [2].
enum class FieldKind {
    Integers,     // "2, 4, 4" (or "[2, 4, 4]", "2 4 4") <-> [2, 4, 4]
    Names,        // "dp_replicate, dp_shard" <-> ["dp_replicate", "dp_shard"]
    Ranks,        // like Integers; empty text removes the key (default order)
    Placements,   // "R, _StridedShard(dim=0, sf=4)" <-> ["R", "_StridedShard(dim=0, sf=4)"]
    OptionalInt,  // "" removes the key (no cap / off), else an integer
    Int,          // an integer; "" removes the key (the default the placeholder shows)
    Flag,         // true / false
    Choice,       // one of the field's choices
    DType,        // a dtype the reader accepts ("bf16", "torch.float32", ...)
};

// A value as the panel shows it ("" for an absent key).
QString fieldText(FieldKind kind, const std::optional<Json>& value);

// The value a text stands for, or the reason it stands for none.
struct ParsedField {
    std::optional<Json> value;  // nullopt with an empty error: remove the key
    QString error;              // names the bad part: "item 2, 'two', is not an integer"
    bool ok() const { return error.isEmpty(); }
};
// `choices`: the accepted texts of a Choice field (none: any).
ParsedField parseFieldText(FieldKind kind, const QString& text, const QStringList& choices = {});

}  // namespace hsdp
