// SPDX-License-Identifier: Apache-2.0
// The reader's refusals: every malformed scenario names its JSON path and
// what was expected.
#include <QtTest>

#include <QElapsedTimer>
#include <QTemporaryDir>

#include <sstream>

#include "reader_test_util.h"

using namespace hsdp;
using namespace hsdp::testing;

class TestReaderErrors : public QObject {
    Q_OBJECT
private slots:
    void malformed_data();
    void malformed();
    void errorMessageFormat();
    void fileErrorsNameTheFile();
    void expansionBoundIsCheckedBeforeExpanding_data();
    void expansionBoundIsCheckedBeforeExpanding();
    void largeExpansionIsOrdered();
    void deepNestingIsAnError();
    void byteOrderMarkIsAcceptedAndNotCounted();
    void invalidUtf8Positions_data();
    void invalidUtf8Positions();
    void oversizedInputIsRefusedWithTheLimit();
    void standardInputStream();
};

void TestReaderErrors::malformed_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("mentions");

    auto row = [](const char* tag, const QByteArray& json, const char* path, const char* mentions) {
        QTest::newRow(tag) << json << QString(path) << QString(mentions);
    };
    // The file as a whole.
    row("top not an object", "[1, 2]", "", "expected a scenario (an object), got an array");
    row("syntax error", R"j({"format": })j", "", "line 1, column 12: invalid JSON");
    row("syntax error line 3", "{\n  \"name\": \"x\",\n}", "", "line 3, column 1: invalid JSON");
    row("trailing content", doc() + " []", "", "invalid JSON");
    row("number overflow", R"j({"format": 1e400})j", "", "line 1, column");
    row("empty text", "", "", "line 1, column 1: invalid JSON");
    // nlohmann stops at a NUL byte: without a check, anything after one was ignored.
    // Each numel fits but the planner's sums (batches, loads, owned numel) would wrap.
    row("total numel overflows", doc(R"j("params": [
        {"name": "a", "shape": [2147483648, 2147483648], "dtype": "f32"},
        {"name": "b", "shape": [2147483648, 2147483648], "dtype": "f32"}])j"),
        "/params",
        "total number of elements of all params overflows a 64-bit integer (at param 1 'b')");
    row("NUL then garbage after the document", doc() + QByteArray(1, '\0') + "{junk", "",
        "NUL byte (0x00)");
    row("NUL between members",
        QByteArray("{\"format\": \"hsdp-scenario/1\",\n ") + QByteArray(1, '\0') + " \"name\": 1}",
        "", "line 2, column 2: NUL byte (0x00)");
    row("two byte order marks", "\xEF\xBB\xBF\xEF\xBB\xBF" + doc(), "", "second byte order mark");
    row("half a byte order mark", "\xEF\xBB" + doc(), "",
        "line 1, column 1: invalid UTF-8 (byte 0xEF)");
    row("duplicate key", R"j({"format": "hsdp-scenario/1", "format": "x"})j", "/format",
        "duplicate key \"format\"");
    row("missing format", R"j({"name": "t", "mesh": {"shape": [1]}})j", "",
        "missing required key \"format\"");
    row("wrong format", R"j({"format": "hsdp-scenario/2", "name": "t", "mesh": {"shape": [1]}})j",
        "/format", "expected \"hsdp-scenario/1\", got \"hsdp-scenario/2\"");
    row("empty name", R"j({"format": "hsdp-scenario/1", "name": "", "mesh": {"shape": [1]}})j",
        "/name", "expected a non-empty string, got \"\"");
    row("name not a string",
        R"j({"format": "hsdp-scenario/1", "name": 3, "mesh": {"shape": [1]}})j", "/name",
        "expected a non-empty string, got 3");
    row("unknown top key", doc(R"j("mesh_shape": [2])j"), "/mesh_shape",
        "unknown key \"mesh_shape\"");
    row("description not a string", doc(R"j("description": ["a"])j"), "/description",
        "expected a string, got an array");
    // Meshes.
    row("mesh and meshes", doc(R"j("meshes": {"a": {"shape": [1]}})j"), "/meshes",
        "expected one of them");
    row("neither mesh nor meshes", R"j({"format": "hsdp-scenario/1", "name": "t"})j", "",
        "missing required key \"mesh\"");
    row("meshes empty", R"j({"format": "hsdp-scenario/1", "name": "t", "meshes": {}})j", "/meshes",
        "at least one");
    row("mesh dim 0", R"j({"format": "hsdp-scenario/1", "name": "t", "mesh": {"shape": [2, 0]}})j",
        "/mesh/shape/1", "expected an integer in 1..1048576, got 0");
    row("mesh dim string",
        R"j({"format": "hsdp-scenario/1", "name": "t", "mesh": {"shape": ["4"]}})j",
        "/mesh/shape/0", "expected an integer in 1..1048576, got \"4\"");
    row("mesh dim float",
        R"j({"format": "hsdp-scenario/1", "name": "t", "mesh": {"shape": [2.0]}})j",
        "/mesh/shape/0", "got 2.0");
    row("mesh shape empty",
        R"j({"format": "hsdp-scenario/1", "name": "t", "mesh": {"shape": []}})j", "/mesh/shape",
        "at least one mesh dim size");
    row("mesh too big",
        R"j({"format": "hsdp-scenario/1", "name": "t", "mesh": {"shape": [1024, 1024, 2]}})j",
        "/mesh/shape", "more than 1048576 ranks");
    row("mesh shape missing", R"j({"format": "hsdp-scenario/1", "name": "t", "mesh": {}})j",
        "/mesh", "missing required key \"shape\"");
    row("mesh unknown key",
        R"j({"format": "hsdp-scenario/1", "name": "t", "mesh": {"shape": [2], "names": ["a"]}})j",
        "/mesh/names", "unknown key \"names\" in a mesh; expected one of: shape, dim_names, ranks");
    row("ranks count", R"j({"format": "hsdp-scenario/1", "name": "t",
        "mesh": {"shape": [2, 2], "ranks": [0, 1, 2]}})j",
        "/mesh/ranks", "expected 4 ranks (the product of the mesh shape), got 3");
    row("duplicate rank", R"j({"format": "hsdp-scenario/1", "name": "t",
        "mesh": {"shape": [2, 2], "ranks": [0, 1, 1, 3]}})j",
        "/mesh/ranks/2", "duplicate rank 1 (also at index 1)");
    // DeviceMesh's nested rank lists must nest like the shape.
    row("nested ranks: too few rows", R"j({"format": "hsdp-scenario/1", "name": "t",
        "mesh": {"shape": [2, 4], "ranks": [[0, 1, 2, 3]]}})j",
        "/mesh/ranks",
        "expected 2 entries along mesh dim 0 (nested ranks follow the mesh shape "
        "[2, 4]), got 1");
    row("nested ranks: short row", R"j({"format": "hsdp-scenario/1", "name": "t",
        "mesh": {"shape": [2, 4], "ranks": [[0, 1, 2, 3], [4, 5, 6]]}})j",
        "/mesh/ranks/1", "expected 4 entries along mesh dim 1");
    row("nested ranks: transposed", R"j({"format": "hsdp-scenario/1", "name": "t",
        "mesh": {"shape": [2, 4], "ranks": [[0, 1], [2, 3], [4, 5], [6, 7]]}})j",
        "/mesh/ranks", "expected 2 entries along mesh dim 0");
    row("nested ranks: too deep", R"j({"format": "hsdp-scenario/1", "name": "t",
        "mesh": {"shape": [2, 2], "ranks": [[[0], [1]], [[2], [3]]]}})j",
        "/mesh/ranks/0/0", "expected an integer");
    row("nested ranks: mixed", R"j({"format": "hsdp-scenario/1", "name": "t",
        "mesh": {"shape": [2, 2], "ranks": [[0, 1], 2]}})j",
        "/mesh/ranks/1", "the nesting of ranks must match the mesh shape [2, 2]");
    row("nested ranks: duplicate", R"j({"format": "hsdp-scenario/1", "name": "t",
        "mesh": {"shape": [2, 2], "ranks": [[0, 1], [1, 3]]}})j",
        "/mesh/ranks/1/0", "duplicate rank 1 (also at /mesh/ranks/0/1)");
    row("torch dtype typo", withParam(R"j({"name": "w", "shape": [4], "dtype": "torch.bf16"})j"),
        "/params/0/dtype", "each also with PyTorch's \"torch.\" prefix");
    row("negative rank", R"j({"format": "hsdp-scenario/1", "name": "t",
        "mesh": {"shape": [2], "ranks": [-1, 0]}})j",
        "/mesh/ranks/0", "an integer in 0..");
    row("huge unsigned rank", R"j({"format": "hsdp-scenario/1", "name": "t",
        "mesh": {"shape": [1], "ranks": [18446744073709551615]}})j",
        "/mesh/ranks/0", "got 18446744073709551615");
    row("dim_names count", R"j({"format": "hsdp-scenario/1", "name": "t",
        "mesh": {"shape": [2, 2], "dim_names": ["dp"]}})j",
        "/mesh/dim_names", "expected 2 dim names (one per mesh dim), got 1");
    row("dim_names duplicated", R"j({"format": "hsdp-scenario/1", "name": "t",
        "mesh": {"shape": [2, 2], "dim_names": ["dp", "dp"]}})j",
        "/mesh/dim_names/1", "duplicate dim name \"dp\" (also at index 0)");
    row("dim_name empty", R"j({"format": "hsdp-scenario/1", "name": "t",
        "mesh": {"shape": [2], "dim_names": [""]}})j",
        "/mesh/dim_names/0", "non-empty string");
    row("mesh name escaped in path", R"j({"format": "hsdp-scenario/1", "name": "t",
        "meshes": {"a/b~c": {"shape": [0]}}})j",
        "/meshes/a~1b~0c/shape/0", "got 0");
    row("rank >= world_size (explicit ranks)j", R"j({"format": "hsdp-scenario/1", "name": "t",
        "mesh": {"shape": [2], "ranks": [0, 5]}, "world_size": 4})j",
        "/mesh/ranks/1", "rank 5 of mesh \"main\" is not < world_size 4");
    row("rank >= world_size (default ranks)j", doc(R"j("world_size": 3)j"), "/world_size",
        "expected world_size >= 4");
    row("world_size 0", doc(R"j("world_size": 0)j"), "/world_size",
        "expected an integer in 1..1048576, got 0");
    // Options.
    row("options not an object", doc(R"j("options": [])j"), "/options",
        "expected options (an object), got an array");
    row("options unknown key", doc(R"j("options": {"alignment": 4})j"), "/options/alignment",
        "unknown key \"alignment\"");
    row("alignment 0", doc(R"j("options": {"alignment_bytes": 0})j"), "/options/alignment_bytes",
        "expected an integer in 1..1073741824, got 0");
    row("max_batch_numel negative", doc(R"j("options": {"max_batch_numel": -5})j"),
        "/options/max_batch_numel", "expected an integer >= 1 or null, got -5");
    row("replica count string", doc(R"j("options": {"hsdp_replica_count": "2"})j"),
        "/options/hsdp_replica_count", "expected an integer >= 1 or null, got \"2\"");
    row("auto_replica_count int", doc(R"j("options": {"auto_replica_count": 1})j"),
        "/options/auto_replica_count", "expected true or false, got 1");
    row("devices_per_node 0", doc(R"j("options": {"devices_per_node": 0})j"),
        "/options/devices_per_node", "expected an integer in 1..");
    row("bad backend", doc(R"j("options": {"backend": "mpi"})j"), "/options/backend",
        "expected one of \"gloo\", \"nccl\", \"hccl\", got \"mpi\"");
    row("broadcast_max_bytes null", doc(R"j("options": {"broadcast_max_bytes": null})j"),
        "/options/broadcast_max_bytes", "expected an integer >= 1, got null");
    row("lr string", doc(R"j("options": {"lr": "0.1"})j"), "/options/lr",
        "expected a number > 0, got \"0.1\"");
    row("bad gather_strategy", doc(R"j("options": {"gather_strategy": "ring"})j"),
        "/options/gather_strategy",
        "expected one of \"all-gather\", \"all-to-all\", \"auto\", got \"ring\"");
    row("gather_strategy bool", doc(R"j("options": {"gather_strategy": true})j"),
        "/options/gather_strategy", "got true");
    row("lr negative", doc(R"j("options": {"lr": -0.1})j"), "/options/lr", "expected a number > 0");
    // options.newton_schulz: each refusal names its own path.
    row("newton_schulz not an object", doc(R"j("options": {"newton_schulz": 5})j"),
        "/options/newton_schulz", "expected Newton-Schulz options (an object), got 5");
    row("newton_schulz unknown key", doc(R"j("options": {"newton_schulz": {"iters": 5}})j"),
        "/options/newton_schulz/iters", "unknown key \"iters\"");
    row("newton_schulz steps 0", doc(R"j("options": {"newton_schulz": {"steps": 0}})j"),
        "/options/newton_schulz/steps", "expected an integer in 1..100, got 0");
    row("newton_schulz steps string",
        doc(R"j("options": {"newton_schulz": {"steps": "5", "coefficients": [3, -4, 2]}})j"),
        "/options/newton_schulz/steps", "expected an integer in 1..100, got \"5\"");
    row("newton_schulz steps without coefficients",
        doc(R"j("options": {"newton_schulz": {"steps": 3}})j"), "/options/newton_schulz/steps",
        "expected 5 without \"coefficients\"");
    row("newton_schulz coefficients count",
        doc(R"j("options": {"newton_schulz": {"steps": 3, "coefficients": [[3, -4, 2], [3, -4, 2]]}})j"),
        "/options/newton_schulz/coefficients",
        "expected one [a, b, c] for every step or a list of 3 (one per step), got 2 triples");
    row("newton_schulz coefficients a pair",
        doc(R"j("options": {"newton_schulz": {"coefficients": [[3, -4]]}})j"),
        "/options/newton_schulz/coefficients/0", "expected a list of three numbers [a, b, c]");
    row("newton_schulz coefficient a string",
        doc(R"j("options": {"newton_schulz": {"coefficients": [[3, "b", 2]]}})j"),
        "/options/newton_schulz/coefficients/0/1", "expected a number, got \"b\"");
    row("newton_schulz coefficient huge",
        doc(R"j("options": {"newton_schulz": {"coefficients": [3, -4, 2e9]}})j"),
        "/options/newton_schulz/coefficients/2", "expected a number in -1e6..1e6");
    row("newton_schulz coefficients empty",
        doc(R"j("options": {"newton_schulz": {"coefficients": []}})j"),
        "/options/newton_schulz/coefficients", "expected one [a, b, c] or a list");
    row("newton_schulz dtype fp16", doc(R"j("options": {"newton_schulz": {"dtype": "fp16"}})j"),
        "/options/newton_schulz/dtype", "expected \"fp32\" or \"bf16\", got \"fp16\"");
    // Params.
    row("params not an array", doc(R"j("params": {})j"), "/params",
        "expected an array of params or repeat blocks, got an object");
    row("param not an object", withParam("3"), "/params/0", "expected a param (an object), got 3");
    row("param unknown key", withParam(R"j({"name": "w", "shape": [2], "dtype": "f32",
        "placement": ["R", "R"]})j"),
        "/params/0/placement", "unknown key \"placement\" in a param");
    row("param missing name", withParam(R"j({"shape": [2], "dtype": "f32"})j"), "/params/0",
        "missing required key \"name\"");
    row("param missing dtype", withParam(R"j({"name": "w", "shape": [2]})j"), "/params/0",
        "missing required key \"dtype\"");
    row("bad dtype", withParam(R"j({"name": "w", "shape": [2], "dtype": "fp32"})j"),
        "/params/0/dtype", "expected a dtype: \"f32\", \"bf16\"");
    row("param shape dim 0", withParam(R"j({"name": "w", "shape": [4, 0], "dtype": "f32"})j"),
        "/params/0/shape/1", "expected an integer >= 1, got 0");
    row("param shape dim string", withParam(R"j({"name": "w", "shape": ["4"], "dtype": "f32"})j"),
        "/params/0/shape/0", "expected an integer >= 1, got \"4\"");
    row("param shape not an array", withParam(R"j({"name": "w", "shape": 4, "dtype": "f32"})j"),
        "/params/0/shape", "expected an array of dim sizes");
    row("numel overflow", withParam(R"j({"name": "w",
        "shape": [4294967296, 4294967296], "dtype": "f32"})j"),
        "/params/0/shape", "overflows a 64-bit integer");
    row("placements count", withParam(R"j({"name": "w", "shape": [4], "dtype": "f32",
        "placements": ["R"]})j"),
        "/params/0/placements", "expected 2 placements (one per dim of mesh \"main\"), got 1");
    row("placements not an array", withParam(R"j({"name": "w", "shape": [4], "dtype": "f32",
        "placements": "R"})j"),
        "/params/0/placements", "expected an array of placements");
    row("placement spelling", withParam(R"j({"name": "w", "shape": [4], "dtype": "f32",
        "placements": ["R", "S(x)"]})j"),
        "/params/0/placements/1", "expected a placement: R, S(d), SS(d,k), P(op)");
    row("placement not a string", withParam(R"j({"name": "w", "shape": [4], "dtype": "f32",
        "placements": [0, "R"]})j"),
        "/params/0/placements/0", "got 0");
    row("requires_grad string", withParam(R"j({"name": "w", "shape": [4], "dtype": "f32",
        "requires_grad": "yes"})j"),
        "/params/0/requires_grad", "expected true or false, got \"yes\"");
    row("optimizer unknown", withParam(R"j({"name": "w", "shape": [4], "dtype": "f32",
        "optimizer": "sgd"})j"),
        "/params/0/optimizer",
        "expected an optimizer: \"muon\" (the default) or \"adamw\", got \"sgd\"");
    row("optimizer wrong case", withParam(R"j({"name": "w", "shape": [4], "dtype": "f32",
        "optimizer": "AdamW"})j"),
        "/params/0/optimizer", "got \"AdamW\"");
    row("optimizer not a string", withParam(R"j({"name": "w", "shape": [4], "dtype": "f32",
        "optimizer": true})j"),
        "/params/0/optimizer", "expected an optimizer");
    row("optimizer in a repeat block", withParam(R"j({"repeat": 2, "var": "i", "params": [
        {"name": "w{i}", "shape": [4], "dtype": "f32", "optimizer": "lion"}]})j"),
        "/params/0/params/0/optimizer", "got \"lion\"");
    // An entry's error names the entry, a repeat block's name template too.
    row("error names its param in a repeat block", withParam(R"j({"repeat": 2, "var": "i",
        "params": [{"name": "layers.{i}.w", "shape": [4, 0], "dtype": "f32"}]})j"),
        "/params/0/params/0/shape/1", "(in param 'layers.{i}.w')");
    row("unknown mesh", withParam(R"j({"name": "w", "shape": [4], "dtype": "f32", "mesh": "x",
        "placements": ["R", "R"]})j"),
        "/params/0/mesh", "unknown mesh \"x\"; expected one of \"main\"");
    row("mesh required with several meshes", twoMeshes(R"j({"name": "w", "shape": [4],
        "dtype": "f32", "placements": ["R"]})j"),
        "/params/0",
        "missing required key \"mesh\": the scenario has several meshes (\"a\", \"b\")");
    row("placements count on the named mesh", twoMeshes(R"j({"name": "w", "shape": [4],
        "dtype": "f32", "mesh": "b", "placements": ["R"]})j"),
        "/params/0/placements", "expected 2 placements (one per dim of mesh \"b\")");
    row("duplicate names", doc(R"j("params": [{"name": "w", "shape": [1], "dtype": "f32"},
        {"name": "w", "shape": [2], "dtype": "f32"}])j"),
        "/params/1/name",
        "duplicate name \"w\" (param 1 after expansion; the same name is param 0)");
    // Repeat blocks: paths follow the file's structure.
    row("repeat negative", withParam(R"j({"repeat": -1, "params": []})j"), "/params/0/repeat",
        "expected an integer >= 0, got -1");
    row("repeat string", withParam(R"j({"repeat": "4", "params": []})j"), "/params/0/repeat",
        "expected an integer >= 0, got \"4\"");
    row("repeat start negative", withParam(R"j({"repeat": 2, "start": -1, "params": []})j"),
        "/params/0/start", "expected an integer in 0..9223372036854775805, got -1");
    row("repeat start past 64 bits",
        withParam(R"j({"repeat": 2, "start": 9223372036854775806, "params": []})j"),
        "/params/0/start", "expected an integer in 0..9223372036854775805");
    row("repeat without params", withParam(R"j({"repeat": 2})j"), "/params/0",
        "missing required key \"params\"");
    row("repeat unknown key", withParam(R"j({"repeat": 2, "transitions": []})j"),
        "/params/0/transitions", "unknown key \"transitions\" in a repeat block");
    row("repeat var not an identifier", withParam(R"j({"repeat": 2, "var": "1x", "params": []})j"),
        "/params/0/var", "expected an identifier");
    row("repeat var shadows", withParam(R"j({"repeat": 2, "params": [
        {"repeat": 2, "params": []}]})j"),
        "/params/0/params/0/var", "var \"i\" is already used by an enclosing repeat block");
    row("error inside nested repeat", doc(R"j("params": [
        {"name": "a", "shape": [1], "dtype": "f32"},
        {"repeat": 2, "params": [
            {"repeat": 3, "var": "j", "params": [
                {"name": "x{i}{j}", "shape": [1], "dtype": "f32"},
                {"name": "y{i}{j}", "shape": [0], "dtype": "f32"}]}]}])j"),
        "/params/1/params/0/params/1/shape/0", "expected an integer >= 1, got 0");
    row("unbound var in name", withParam(R"j({"repeat": 2, "params": [
        {"name": "w{j}", "shape": [1], "dtype": "f32"}]})j"),
        "/params/0/params/0/name", "name uses \"{j}\" but no enclosing repeat block has var \"j\"");
    row("var outside any block", withParam(R"j({"name": "w{i}", "shape": [1], "dtype": "f32"})j"),
        "/params/0/name", "name uses \"{i}\"");
    row("duplicate names after expansion", withParam(R"j({"repeat": 2, "params": [
        {"name": "a{i}", "shape": [1], "dtype": "f32"},
        {"name": "a1", "shape": [1], "dtype": "f32"}]})j"),
        "/params/0/params/0/name",
        "duplicate name \"a1\" (param 2 after expansion, with i=1; the same name is param 1)");
    // TP transitions.
    row("transitions not an array", doc(R"j("tp_transitions": 1)j"), "/tp_transitions",
        "expected an array of TP transitions or repeat blocks, got 1");
    row("transition missing src", withTransition(R"j({"name": "t", "shape": [4], "dtype": "f32",
        "dst": ["R", "R"]})j"),
        "/tp_transitions/0", "missing required key \"src\"");
    row("transition dst count", withTransition(R"j({"name": "t", "shape": [4], "dtype": "f32",
        "src": ["R", "P"], "dst": ["R"]})j"),
        "/tp_transitions/0/dst", "expected 2 placements");
    row("transition bad placement", withTransition(R"j({"name": "t", "shape": [4], "dtype": "f32",
        "src": ["R", "P(foo)"], "dst": ["R", "R"]})j"),
        "/tp_transitions/0/src/1", "got \"P(foo)\"");
    row("transition unknown key", withTransition(R"j({"name": "t", "shape": [4], "dtype": "f32",
        "src": ["R", "R"], "dst": ["R", "R"], "requires_grad": true})j"),
        "/tp_transitions/0/requires_grad", "unknown key \"requires_grad\" in a TP transition");
    row("transition block uses params", withTransition(R"j({"repeat": 1, "params": []})j"),
        "/tp_transitions/0/params", "unknown key \"params\" in a repeat block");
    row("duplicate transition names", withTransition(R"j({"repeat": 2, "var": "k",
        "transitions": [{"name": "t", "shape": [4], "dtype": "f32",
        "src": ["R", "R"], "dst": ["R", "R"]}]})j"),
        "/tp_transitions/0/transitions/0/name",
        "duplicate name \"t\" (TP transition 1 after expansion, with k=1");
}

void TestReaderErrors::malformed() {
    QFETCH(QByteArray, json);
    QFETCH(QString, path);
    QFETCH(QString, mentions);
    const QString error = qs(readError(json));
    const QString gotPath = error.section('\n', 0, 0);
    const QString problem = error.section('\n', 1);
    QCOMPARE(gotPath, path);
    QVERIFY2(problem.contains(mentions), qPrintable("problem: " + problem));
}

void TestReaderErrors::errorMessageFormat() {
    try {
        readScenario(withParam(R"j({"name": "w", "shape": [0], "dtype": "f32"})j").toStdString());
        QFAIL("no error");
    } catch (const ScenarioError& e) {
        QCOMPARE(QString(e.what()), qs(e.path + ": " + e.problem));
        QVERIFY(e.file.empty());
    }
    try {
        readScenario("{");
        QFAIL("no error");
    } catch (const ScenarioError& e) {
        QVERIFY(e.path.empty());
        QCOMPARE(QString(e.what()), qs(e.problem));  // no empty path prefix
    }
}

void TestReaderErrors::fileErrorsNameTheFile() {
    QTemporaryDir dir;
    const std::string missing = (dir.path() + "/missing.json").toStdString();
    try {
        readScenarioFile(missing);
        QFAIL("no error");
    } catch (const ScenarioError& e) {
        QCOMPARE(qs(e.file), qs(missing));
        QVERIFY(QString(e.what()).startsWith(qs(missing) + ": "));
        QVERIFY(QString(e.what()).contains("No such file"));
    }
    QFile bad(dir.path() + "/bad.json");
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write(withParam(R"j({"name": "w", "shape": [1], "dtype": "f8"})j"));
    bad.close();
    try {
        readScenarioFile(bad.fileName().toStdString());
        QFAIL("no error");
    } catch (const ScenarioError& e) {
        QCOMPARE(qs(e.path), QString("/params/0/dtype"));
        QVERIFY(
            QString(e.what()).startsWith(bad.fileName() + ": /params/0/dtype: expected a dtype"));
    }
    try {
        readScenarioFile(dir.path().toStdString());
        QFAIL("no error");
    } catch (const ScenarioError& e) {
        QVERIFY(QString(e.what()).contains("directory"));
    }
}

void TestReaderErrors::expansionBoundIsCheckedBeforeExpanding_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("path");
    QTest::newRow("100000 x 1000 params") << withParam(R"j({"repeat": 100000, "params": [
        {"repeat": 1000, "var": "j", "params": [
            {"name": "p{i}_{j}", "shape": [1], "dtype": "f32"}]}]})j")
                                          << "/params";
    QTest::newRow("int64 max x int64 max (saturates)j")
        << withParam(R"j({"repeat": 9223372036854775807,
        "params": [{"repeat": 9223372036854775807, "var": "j", "params": [
            {"name": "p{i}_{j}", "shape": [1], "dtype": "f32"}]}]})j")
        << "/params";
    QTest::newRow("sum of blocks past the bound") << doc(R"j("params": [
        {"repeat": 6000000, "params": [{"name": "a{i}", "shape": [1], "dtype": "f32"}]},
        {"repeat": 6000000, "params": [{"name": "b{i}", "shape": [1], "dtype": "f32"}]}])j")
                                                  << "/params";
    QTest::newRow("transitions") << withTransition(R"j({"repeat": 100000, "var": "k",
        "transitions": [{"repeat": 1000, "var": "j", "transitions": [{"name": "t{k}{j}",
        "shape": [4], "dtype": "f32", "src": ["R", "R"], "dst": ["R", "R"]}]}]})j")
                                 << "/tp_transitions";
}

void TestReaderErrors::expansionBoundIsCheckedBeforeExpanding() {
    QFETCH(QByteArray, json);
    QFETCH(QString, path);
    QElapsedTimer timer;
    timer.start();
    const QString error = qs(readError(json));
    QVERIFY2(timer.elapsed() < 1000, "the bound must be computed, not found by expanding");
    QCOMPARE(error.section('\n', 0, 0), path);
    QVERIFY2(error.contains("expands to more than 10000000"), qPrintable(error));
}

void TestReaderErrors::largeExpansionIsOrdered() {
    Scenario s = readScenario(withParam(R"j({"repeat": 400, "params": [
        {"repeat": 250, "var": "j", "params": [
            {"name": "p{i}.{j}", "shape": [2, 2], "dtype": "f32", "placements": ["R", "S(0)"]}]}]})j")
                                  .toStdString());
    QCOMPARE(s.params.size(), size_t(100000));
    QCOMPARE(qs(s.params[0].name), QString("p0.0"));
    QCOMPARE(qs(s.params[251].name), QString("p1.1"));
    QCOMPARE(qs(s.params[99999].name), QString("p399.249"));
    QCOMPARE(s.params[99999].index, 99999);
    // repeat 0 expands to nothing.
    Scenario empty = readScenario(withParam(R"j({"repeat": 0, "params": [
        {"name": "x{i}", "shape": [1], "dtype": "f32"}]})j")
                                      .toStdString());
    QVERIFY(empty.params.empty());
}

void TestReaderErrors::deepNestingIsAnError() {
    QByteArray json =
        doc(("\"description\": " + QByteArray(500, '[') + QByteArray(500, ']')).constData());
    const QString error = qs(readError(json));
    QVERIFY2(error.startsWith("/description/0/0/"), qPrintable(error.left(80)));
    QVERIFY(error.contains("nesting deeper than 200 levels"));
}

void TestReaderErrors::byteOrderMarkIsAcceptedAndNotCounted() {
    // Accepted: RFC 8259 lets parsers ignore it and Windows editors write it.
    Scenario s = readScenario(("\xEF\xBB\xBF" + doc()).toStdString());
    QCOMPARE(qs(s.name), QString("t"));
    // Positions match what an editor shows (it hides the mark): column 2 here.
    const QString error = qs(readError("\xEF\xBB\xBF{x}"));
    QVERIFY2(error.contains("line 1, column 2: invalid JSON"), qPrintable(error));
}

void TestReaderErrors::invalidUtf8Positions_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("mentions");
    QByteArray base = "{\"format\": \"hsdp-scenario/1\",\n \"name\": \"caf";
    QTest::newRow("lone continuation byte") << base + "\x80\"}"
                                            << "line 2, column 14: invalid UTF-8 (byte 0x80)";
    QTest::newRow("truncated sequence") << base + "\xC3\"}"
                                        << "line 2, column 14: invalid UTF-8 (byte 0xC3)";
    QTest::newRow("overlong slash") << base + "\xC0\xAF\"}"
                                    << "line 2, column 14: invalid UTF-8 (byte 0xC0)";
    QTest::newRow("surrogate") << base + "\xED\xA0\x80\"}"
                               << "line 2, column 14: invalid UTF-8 (byte 0xED)";
    QTest::newRow("above U+10FFFF") << base + "\xF4\x90\x80\x80\"}"
                                    << "invalid UTF-8 (byte 0xF4)";
    // Characters before the bad byte count as one column each, whatever their length.
    QTest::newRow("after multibyte characters") << base + "\xC3\xA9\xE2\x82\xAC\xFF\"}"
                                                << "line 2, column 16: invalid UTF-8 (byte 0xFF)";
    QTest::newRow("outside a string") << QByteArray("{\xFE}") << "line 1, column 2: invalid UTF-8";
}

void TestReaderErrors::invalidUtf8Positions() {
    QFETCH(QByteArray, json);
    QFETCH(QString, mentions);
    const QString error = qs(readError(json));
    QCOMPARE(error.section('\n', 0, 0), QString());
    QVERIFY2(error.contains(mentions), qPrintable(error));
}

QTEST_APPLESS_MAIN(TestReaderErrors)
#include "tst_reader_errors.moc"

void TestReaderErrors::oversizedInputIsRefusedWithTheLimit() {
    // An endless character device: read until memory runs out before the cap.
    if (!QFile::exists("/dev/zero")) QSKIP("no /dev/zero");
    try {
        readScenarioFile("/dev/zero");
        QFAIL("read /dev/zero");
    } catch (const ScenarioError& e) {
        QVERIFY2(std::string(e.what()).find("256 MiB (268435456 bytes)") != std::string::npos,
                 e.what());
    }
    // A regular file past the cap is refused by its size, without reading it.
    QTemporaryDir dir;
    QFile big(dir.filePath("big.json"));
    QVERIFY(big.open(QIODevice::WriteOnly));
    QVERIFY(big.resize(qint64(kMaxScenarioBytes) + 1));
    big.close();
    try {
        readScenarioFile(big.fileName().toStdString());
        QFAIL("read an oversized file");
    } catch (const ScenarioError& e) {
        QVERIFY2(std::string(e.what()).find("larger than 256 MiB") != std::string::npos, e.what());
    }
}

void TestReaderErrors::standardInputStream() {
    std::istringstream good(doc().toStdString());
    QCOMPARE(readScenarioStream(good, "<stdin>").worldSize, 4);
    std::istringstream bad("{");
    try {
        readScenarioStream(bad, "<stdin>");
        QFAIL("read a broken document");
    } catch (const ScenarioError& e) {
        QVERIFY2(std::string(e.what()).rfind("<stdin>", 0) == 0, e.what());
    }
}
