// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

#include "scenario/json_text.h"

namespace hsdp {

// What the what-if panel calls the value at a JSON pointer of the edited
// document: "Mesh main · Shape", "Options · Batch cap (numel)",
// "layers.{i}.attention.wq.weight · Placements", with " item 2" for an
// element of a list. A pointer into no editable field reads as its keys, a
// list element with a name as that name ("tp_transitions · 'wo.out' · src").
// Never a JSON path, never the file: the user edits fields, not the file.
QString fieldLabel(const Json& document, const QString& pointer);

// The message of a reader error an edit of `edited` caused: the field edited
// first, then, if the reader points elsewhere, where it points:
// "Mesh main · Shape: with this value, Mesh main · Dim names: expected 1 dim
// names (one per mesh dim), got 3".
QString editErrorText(const Json& document, const QString& edited, const QString& errorPath,
                      const QString& problem);

}  // namespace hsdp
