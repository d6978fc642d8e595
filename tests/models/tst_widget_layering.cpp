// SPDX-License-Identifier: Apache-2.0
// The studio's folders read one way, as core/'s modules do (tst_layering):
// derived/ (what several tools derive off the GUI thread) at the bottom,
// then painting/ (shared painting helpers), view/ (the view interface), the
// tools, view_registry/ (the one folder that knows every tool); report/ and
// window/ above widgets/, window/ at the very top. A tool never includes
// another tool, so a tool can be added or removed alone, and nothing below
// a folder includes it back.
#include <QtTest>

#include <QDirIterator>
#include <QRegularExpression>
#include <map>
#include <set>

namespace {

const QString kSource = HSDP_SOURCE_DIR "/";

const std::set<QString> kTools = {"autosave",        "buffer_layout", "diagnostics", "editing",
                                  "gather_strategy", "job",           "memory",      "mesh",
                                  "new_scenario",    "owner_balance", "plan_diff",   "plan_tree",
                                  "steps",           "tensor_layout", "trace",       "traffic",
                                  "verification",    "view_export",   "wrong_rows"};

// A folder of the studio, named as in the layer table: widgets/<folder>, with
// derived/'s own layers (derived/plan, derived/run, derived/job, derived
// itself for the session above them) told apart; report and window at the
// top level.
QString layerOf(const QString& path) {
    const QStringList parts = path.split('/');
    if (parts.at(0) != "widgets") return parts.at(0);
    if (parts.at(1) == "derived" && parts.size() > 3) return "derived/" + parts.at(2);
    return parts.at(1);
}

// Layer -> the layers it may include besides itself (core/ is always allowed).
std::set<QString> allowedFrom(const QString& layer) {
    static const std::set<QString> bottom = {"derived/plan", "derived/run", "derived/job",
                                             "derived",      "painting",    "view"};
    if (layer == "derived/plan") return {};
    if (layer == "derived/run") return {"derived/plan"};
    // A job record is checked against the plan and laid against a run's steps.
    if (layer == "derived/job") return {"derived/plan", "derived/run"};
    if (layer == "derived") return {"derived/plan", "derived/run", "derived/job"};
    if (layer == "painting") return {"derived/plan", "derived/run", "derived/job", "derived"};
    if (layer == "view")
        return {"derived/plan", "derived/run", "derived/job", "derived", "painting"};
    if (kTools.count(layer)) return bottom;
    std::set<QString> all = bottom;
    all.insert(kTools.begin(), kTools.end());
    if (layer == "view_registry") return all;
    all.insert("view_registry");
    if (layer == "report") return all;
    all.insert("report");
    if (layer == "window") return all;
    return {};
}

bool isStudioLayer(const QString& layer) {
    return layer == "report" || layer == "window" || layer == "view_registry" ||
           layer.startsWith("derived") || layer == "painting" || layer == "view" ||
           kTools.count(layer);
}

// The studio file an include names, relative to the source root, or "" for
// an engine or system header (core/ and widgets/ share first path parts:
// core/plan_diff and widgets/plan_diff).
QString studioFileOf(const QString& include) {
    for (const QString& root : {QString("widgets/"), QString()}) {
        const QString path = root + include;
        if (!path.startsWith("core/") && QFileInfo::exists(kSource + path)) return path;
    }
    return {};
}

// The includes of one file that point back up or sideways between tools.
QStringList violationsIn(const QString& path, const QString& text) {
    static const QRegularExpression include("^\\s*#\\s*include\\s+\"([^\"]+)\"",
                                            QRegularExpression::MultilineOption);
    const QString from = layerOf(path);
    QStringList violations;
    for (auto m = include.globalMatch(text); m.hasNext();) {
        const QString target = studioFileOf(m.next().captured(1));
        if (target.isEmpty()) continue;
        const QString to = layerOf(target);
        if (to == from || allowedFrom(from).count(to)) continue;
        violations << path + " includes " + target + " (" + from + " -> " + to + ")";
    }
    return violations;
}

QStringList sourceFilesUnder(const QString& top) {
    QStringList files;
    QDirIterator it(kSource + top, {"*.h", "*.cpp"}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) files << QDir(kSource).relativeFilePath(it.next());
    return files;
}

}  // namespace

class TestWidgetLayering : public QObject {
    Q_OBJECT
private slots:
    void everyFolderHasALayer() {
        for (const QString& dir :
             QDir(kSource + "widgets").entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            QVERIFY2(isStudioLayer(layerOf("widgets/" + dir + "/x.h")),
                     qPrintable("widgets/" + dir + " has no layer: add it to the table"));
        for (const QString& dir :
             QDir(kSource + "widgets/derived").entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            QVERIFY2(dir == "plan" || dir == "run" || dir == "job",
                     qPrintable("widgets/derived/" + dir + " has no layer: add it to the table"));
    }

    void includesRunDownOnly() {
        QStringList violations;
        int files = 0;
        for (const QString top : {"widgets", "report", "window"}) {
            for (const QString& path : sourceFilesUnder(top)) {
                QFile file(kSource + path);
                QVERIFY(file.open(QIODevice::ReadOnly));
                ++files;
                violations << violationsIn(path, QString::fromUtf8(file.readAll()));
            }
        }
        QVERIFY(files > 200);
        QVERIFY2(violations.isEmpty(), qPrintable(violations.join("\n")));
    }

    // The check itself catches each kind of arrow the floor plan forbids.
    void anArrowBackUpIsCaught_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("include");
        QTest::newRow("derived includes a tool") << "widgets/derived/plan/plan_result.cpp"
                                                 << "trace/trace_widget.h";
        QTest::newRow("plan layer includes the run layer") << "widgets/derived/plan/plan_index.cpp"
                                                           << "derived/run/run_data.h";
        QTest::newRow("a tool includes another tool") << "widgets/traffic/traffic_widget.cpp"
                                                      << "trace/trace_canvas.h";
        QTest::newRow("a tool includes the registry") << "widgets/mesh/mesh_widget.cpp"
                                                      << "view_registry/studio_views.h";
        QTest::newRow("the view interface includes a tool") << "widgets/view/studio_view.cpp"
                                                            << "mesh/mesh_widget.h";
        QTest::newRow("a view includes the report") << "widgets/memory/memory_widget.cpp"
                                                    << "report/report_builder.h";
        QTest::newRow("the report includes the window") << "report/report_builder.cpp"
                                                        << "window/main_window.h";
    }
    void anArrowBackUpIsCaught() {
        QFETCH(QString, path);
        QFETCH(QString, include);
        QVERIFY2(QFileInfo::exists(kSource + path), qPrintable(path));
        QCOMPARE(violationsIn(path, "#include \"" + include + "\"\n").size(), 1);
    }

    void anArrowDownIsAllowed() {
        QVERIFY(
            violationsIn("widgets/trace/trace_widget.cpp",
                         "#include \"derived/run/run_index.h\"\n#include \"view/studio_view.h\"\n"
                         "#include \"painting/heat_scale.h\"\n#include \"plan/plan.h\"\n")
                .isEmpty());
        QVERIFY(violationsIn("window/main_window.cpp", "#include \"report/report_builder.h\"\n")
                    .isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestWidgetLayering)
#include "tst_widget_layering.moc"
