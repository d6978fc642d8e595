// SPDX-License-Identifier: Apache-2.0
#pragma once

// The one way a test names a file of the repository's samples/ folder:
// sample("teaching_2x2.json"); sample() is the folder itself (with its "/").

#include <QByteArray>
#include <QFile>
#include <QString>

namespace hsdp::testing {

inline QString sample(const QString& name = QString()) {
    return QStringLiteral(HSDP_SOURCE_DIR "/samples/") + name;
}

// The text of a sample; a test without its sample cannot run (qFatal).
inline QByteArray sampleText(const char* name) {
    QFile file(sample(QLatin1String(name)));
    if (!file.open(QIODevice::ReadOnly)) qFatal("cannot read sample %s", name);
    return file.readAll();
}

}  // namespace hsdp::testing
