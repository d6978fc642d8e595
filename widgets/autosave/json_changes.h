// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <optional>
#include <vector>

#include "scenario/json_text.h"

namespace hsdp {

// One value that differs between two scenario documents, addressed by the
// JSON pointer the what-if panel edits it by. nullopt: the key is absent on
// that side (a batch cap added or cleared).
struct JsonChange {
    QString pointer;
    std::optional<Json> before;
    std::optional<Json> after;
};

// What turns `before` into `after`, in `after`'s member order (removed keys
// last). Objects are compared key by key and lists of objects (meshes,
// params) entry by entry when both have as many entries; any other list (a
// shape, dim names, placements) is one value, as the panel edits it. A
// change of the whole document has the pointer "".
std::vector<JsonChange> jsonChanges(const Json& before, const Json& after);

// Whether two scenario documents say the same: equal, but for members whose
// value is an empty object, which read as absent ("options": {} is no
// options; an edit undone leaves one behind).
bool sameDocument(const Json& a, const Json& b);

// The value as a reader of the restore offer sees it: compact JSON, cut to
// at most `maxChars` characters with "…"; "(absent)" for nullopt.
QString jsonChangeText(const std::optional<Json>& value, int maxChars = 80);

}  // namespace hsdp
