// SPDX-License-Identifier: Apache-2.0
#pragma once

// The samples as data rows, shared by the studio's table-driven tests: one row
// "path" per samples/*.json, named after the file.

#include <QDir>
#include <QFileInfo>
#include <QStringList>
#include <QTest>

#include "samples.h"
#include "sanitizers.h"

namespace hsdp::testing {

inline QStringList samplePaths() {
    QDir dir(sample());
    QStringList paths;
    for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        paths << dir.absoluteFilePath(name);
    return paths;
}

// The samples and the worked examples (tests/data/examples, their expected
// plans left out): every scenario a test can run for real.
inline QStringList scenarioPaths() {
    QStringList paths = samplePaths();
    QDir examples(QStringLiteral(HSDP_SOURCE_DIR "/tests/data/examples/"));
    for (const QString& name :
         examples.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        if (!name.contains(QLatin1String("expected-plan")))
            paths << examples.absoluteFilePath(name);
    return paths;
}

// scenarioPaths(), but under the sanitizer presets (which divide the run
// budgets) without the Llama samples: the teaching sample's code paths at a
// larger scale, minutes each under ThreadSanitizer; the plain build runs them.
inline QStringList sanitizerScenarioPaths() {
    QStringList paths = scenarioPaths();
    if (runBudgetDivisor() > 1)
        paths.removeIf([](const QString& p) { return p.contains(QLatin1String("/llama3_")); });
    return paths;
}

inline void addSampleRows() {
    QTest::addColumn<QString>("path");
    for (const QString& path : samplePaths())
        QTest::newRow(qPrintable(QFileInfo(path).baseName())) << path;
}

}  // namespace hsdp::testing
