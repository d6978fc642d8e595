// SPDX-License-Identifier: Apache-2.0
#pragma once
// Builders of small scenario documents shared by the reader tests.

#include <QByteArray>
#include <QString>

#include <string>

#include "scenario/reader.h"

namespace hsdp::testing {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

// A valid scenario on a 2x2 mesh named "main", plus `members` at the top level.
QByteArray doc(const char* members = nullptr) {
    QByteArray out = R"j({"format": "hsdp-scenario/1", "name": "t", "mesh": {"shape": [2, 2]})j";
    if (members) out += QByteArray(", ") + members;
    return out + "}";
}

// Same with one param entry (or repeat block) as the only element of `params`.
QByteArray withParam(const char* entry) {
    return doc(QByteArray("\"params\": [" + QByteArray(entry) + "]").constData());
}

QByteArray withTransition(const char* entry) {
    return doc(QByteArray("\"tp_transitions\": [" + QByteArray(entry) + "]").constData());
}

// Scenario JSON for two meshes and one param entry.
QByteArray twoMeshes(const char* entry) {
    return QByteArray(R"j({"format": "hsdp-scenario/1", "name": "t",
        "meshes": {"a": {"shape": [2]}, "b": {"shape": [2, 2]}}, "params": [)j") +
           entry + "]}";
}

std::string readError(const QByteArray& json) {
    try {
        readScenario(json.toStdString());
    } catch (const ScenarioError& e) {
        return e.path + "\n" + e.problem;
    }
    return "<no error>";
}

QString examplesDir() {
    return QStringLiteral(HSDP_SOURCE_DIR "/tests/data/examples/");
}

}  // namespace hsdp::testing
