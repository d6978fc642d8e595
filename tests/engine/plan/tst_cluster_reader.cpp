// SPDX-License-Identifier: Apache-2.0
// Cluster files (docs/cluster-format.md): every shipped preset and the docs
// example read; every malformed file names its JSON path; the rank -> node
// map and the link level a group spans.
#include <QtTest>

#include <QTemporaryDir>
#include <fstream>
#include <functional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cluster/reader.h"
#include "types/collective_op.h"

using namespace hsdp;
using Json = nlohmann::ordered_json;

namespace {

const std::string kSource = HSDP_SOURCE_DIR;

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream out;
    out << in.rdbuf();
    return out.str();
}

// A valid two-node cluster every error case breaks in one place.
Json baseDocument() {
    return Json::parse(R"j({
      "format": "hsdp-cluster/1",
      "name": "test",
      "nodes": 2,
      "devices_per_node": 4,
      "links": {
        "intra_node": {"bandwidth_gigabytes_per_s": 450, "latency_us": 3, "efficiency": 0.8},
        "inter_node": {"bandwidth_gigabytes_per_s": 50, "latency_us": 10}
      },
      "device": {
        "memory_bytes": 80000000000,
        "peak_tflops": {"float32": 67, "bfloat16": 989, "float16": 989}
      }
    })j");
}

struct ErrorCase {
    const char* tag;
    std::function<void(Json&)> change;
    const char* path;
    const char* mentions;
};

const std::vector<ErrorCase>& errorCases() {
    using P = Json::json_pointer;
    static const std::vector<ErrorCase> cases = {
        {"top not an object", [](Json& j) { j = Json::array(); }, "",
         "expected a cluster (an object), got an array"},
        {"wrong format", [](Json& j) { j["format"] = "hsdp-cluster/2"; }, "/format",
         "expected \"hsdp-cluster/1\", got \"hsdp-cluster/2\""},
        {"missing format", [](Json& j) { j.erase("format"); }, "",
         "missing required key \"format\""},
        {"unknown top key", [](Json& j) { j["gpus"] = 8; }, "/gpus",
         "unknown key \"gpus\" in a cluster; expected one of: format, name"},
        {"missing name", [](Json& j) { j.erase("name"); }, "", "missing required key \"name\""},
        {"nodes zero", [](Json& j) { j["nodes"] = 0; }, "/nodes",
         "expected an integer in 1..1048576, got 0"},
        {"nodes a string", [](Json& j) { j["nodes"] = "2"; }, "/nodes",
         "expected an integer in 1..1048576, got \"2\""},
        {"devices_per_node fractional", [](Json& j) { j["devices_per_node"] = 4.5; },
         "/devices_per_node", "got 4.5"},
        {"too many ranks",
         [](Json& j) {
             j["nodes"] = 1 << 20;
             j["devices_per_node"] = 2;
         },
         "/devices_per_node", "more than 1048576 ranks"},
        {"missing links", [](Json& j) { j.erase("links"); }, "", "missing required key \"links\""},
        {"unknown link level", [](Json& j) { j["links"]["pcie"] = Json::object(); }, "/links/pcie",
         "unknown key \"pcie\" in links; expected one of: intra_node, inter_node"},
        {"missing inter_node", [](Json& j) { j["links"].erase("inter_node"); }, "/links",
         "missing required key \"inter_node\""},
        {"bandwidth a word",
         [](Json& j) { j[P("/links/inter_node/bandwidth_gigabytes_per_s")] = "fast"; },
         "/links/inter_node/bandwidth_gigabytes_per_s", "expected a number > 0, got \"fast\""},
        {"bandwidth negative",
         [](Json& j) { j[P("/links/intra_node/bandwidth_gigabytes_per_s")] = -450; },
         "/links/intra_node/bandwidth_gigabytes_per_s", "expected a number > 0, got -450"},
        {"bandwidth zero bytes",
         [](Json& j) {
             j[P("/links/inter_node")].erase("bandwidth_gigabytes_per_s");
             j[P("/links/inter_node/bandwidth_bytes_per_s")] = 0;
         },
         "/links/inter_node/bandwidth_bytes_per_s", "expected a number > 0, got 0"},
        {"bandwidth in both units",
         [](Json& j) { j[P("/links/inter_node/bandwidth_bytes_per_s")] = 5e10; },
         "/links/inter_node/bandwidth_gigabytes_per_s", "expected one of them"},
        {"bandwidth missing",
         [](Json& j) { j[P("/links/inter_node")].erase("bandwidth_gigabytes_per_s"); },
         "/links/inter_node", "missing required key \"bandwidth_gigabytes_per_s\""},
        {"gbps is not a key", [](Json& j) { j[P("/links/inter_node/bandwidth_gbps")] = 400; },
         "/links/inter_node/bandwidth_gbps", "unknown key \"bandwidth_gbps\" in a link level"},
        {"latency negative", [](Json& j) { j[P("/links/inter_node/latency_us")] = -1; },
         "/links/inter_node/latency_us", "expected a number >= 0, got -1"},
        {"latency missing", [](Json& j) { j[P("/links/intra_node")].erase("latency_us"); },
         "/links/intra_node", "missing required key \"latency_us\""},
        {"latency in seconds is unknown",
         [](Json& j) { j[P("/links/intra_node/latency_s")] = 3e-6; }, "/links/intra_node/latency_s",
         "unknown key \"latency_s\""},
        {"efficiency above 1", [](Json& j) { j[P("/links/intra_node/efficiency")] = 1.5; },
         "/links/intra_node/efficiency", "expected a number in (0, 1], got 1.5"},
        {"efficiency zero", [](Json& j) { j[P("/links/inter_node/efficiency")] = 0; },
         "/links/inter_node/efficiency", "expected a number in (0, 1], got 0"},
        {"efficiency a percentage", [](Json& j) { j[P("/device/efficiency")] = 80; },
         "/device/efficiency", "expected a number in (0, 1], got 80"},
        {"matmul efficiency above 1", [](Json& j) { j[P("/device/matmul_efficiency")] = 81; },
         "/device/matmul_efficiency", "expected a number in (0, 1], got 81"},
        {"saturation negative", [](Json& j) { j[P("/device/matmul_saturation_elements")] = -1; },
         "/device/matmul_saturation_elements", "expected a number >= 0, got -1"},
        {"kernel overhead a string", [](Json& j) { j[P("/device/kernel_overhead_us")] = "4"; },
         "/device/kernel_overhead_us", "expected a number >= 0"},
        {"validation error negative",
         [](Json& j) {
             j["validation"] = Json{{"error_percent", -3}, {"basis", "x"}};
         },
         "/validation/error_percent", "expected a number >= 0, got -3"},
        {"validation without basis",
         [](Json& j) {
             j["validation"] = Json{{"error_percent", 3}};
         },
         "/validation", "missing required key \"basis\""},
        {"validation scope",
         [](Json& j) {
             j["validation"] = Json{{"error_percent", 3}, {"basis", "x"}, {"scope", "steps"}};
         },
         "/validation/scope", "expected \"step\" or \"pieces\""},
        {"validation unknown key",
         [](Json& j) {
             j["validation"] = Json{{"error_percent", 3}, {"basis", "x"}, {"n", 2}};
         },
         "/validation/n", "unknown key \"n\""},
        {"link not an object", [](Json& j) { j[P("/links/intra_node")] = 450; },
         "/links/intra_node", "expected a link level (an object), got 450"},
        {"missing device", [](Json& j) { j.erase("device"); }, "",
         "missing required key \"device\""},
        {"memory negative", [](Json& j) { j[P("/device/memory_bytes")] = -1; },
         "/device/memory_bytes", "expected an integer >= 1, got -1"},
        {"memory in GB as a fraction", [](Json& j) { j[P("/device/memory_bytes")] = 80.5; },
         "/device/memory_bytes", "expected an integer >= 1, got 80.5"},
        {"missing bfloat16 flops", [](Json& j) { j[P("/device/peak_tflops")].erase("bfloat16"); },
         "/device/peak_tflops", "missing required key \"bfloat16\""},
        {"unknown dtype flops", [](Json& j) { j[P("/device/peak_tflops/fp8")] = 1979; },
         "/device/peak_tflops/fp8", "unknown key \"fp8\" in peak TFLOP/s per dtype"},
        {"flops zero", [](Json& j) { j[P("/device/peak_tflops/float32")] = 0; },
         "/device/peak_tflops/float32", "expected a number > 0, got 0"},
        {"rank map too short", [](Json& j) { j["rank_to_node"] = {0, 0, 0, 0, 1, 1, 1}; },
         "/rank_to_node",
         "expected 8 node indices (one per rank: nodes 2 x devices_per_node 4), got 7"},
        {"rank map names a missing node",
         [](Json& j) { j["rank_to_node"] = {0, 0, 0, 0, 1, 1, 1, 2}; }, "/rank_to_node/7",
         "expected an integer in 0..1, got 2"},
        {"rank map overfills a node", [](Json& j) { j["rank_to_node"] = {0, 0, 0, 0, 0, 1, 1, 1}; },
         "/rank_to_node/4",
         "rank 4 is a rank too many on node 0: a node holds devices_per_node 4 ranks"},
        {"rank map not a list", [](Json& j) { j["rank_to_node"] = "round-robin"; }, "/rank_to_node",
         "expected an array of node indices, one per rank"},
    };
    return cases;
}

Cluster twoNodes(std::vector<int> rankToNode = {}) {
    Json j = baseDocument();
    if (!rankToNode.empty()) j["rank_to_node"] = rankToNode;
    return readCluster(j.dump());
}

// The ```json blocks of docs/cluster-format.md of format hsdp-cluster/1.
std::vector<std::string> docsClusterBlocks() {
    std::istringstream in(readText(kSource + "/docs/cluster-format.md"));
    std::vector<std::string> blocks;
    std::string line, block;
    bool open = false;
    while (std::getline(in, line)) {
        if (open && line.rfind("```", 0) == 0) {
            if (block.find("\"hsdp-cluster/1\"") != std::string::npos) blocks.push_back(block);
            open = false;
        } else if (open) {
            block += line + "\n";
        } else if (line == "```json") {
            open = true;
            block.clear();
        }
    }
    return blocks;
}

}  // namespace

class TestClusterReader : public QObject {
    Q_OBJECT
private slots:
    void theBaseDocumentReads() {
        Cluster c = twoNodes();
        QCOMPARE(c.name, std::string("test"));
        QCOMPARE(c.nodes, 2);
        QCOMPARE(c.devicesPerNode, 4);
        QCOMPARE(c.worldSize(), 8);
        QCOMPARE(c.intraNode.bandwidthBytesPerSecond, 450e9);
        QCOMPARE(c.intraNode.latencySeconds, 3e-6);
        QCOMPARE(c.intraNode.efficiency, 0.8);
        QCOMPARE(c.interNode.bandwidthBytesPerSecond, 50e9);
        QCOMPARE(c.interNode.latencySeconds, 10e-6);
        QCOMPARE(c.interNode.efficiency, 1.0);  // absent: 1
        QCOMPARE(c.device.memoryBytes, int64_t{80000000000});
        QCOMPARE(c.device.peakFlops.float32, 67e12);
        QCOMPARE(c.device.peakFlops.bfloat16, 989e12);
        QCOMPARE(c.device.peakFlops.float16, 989e12);
        QCOMPARE(c.device.efficiency, 1.0);
    }

    // A link level's by_op takes every op of the table of collective ops,
    // the all-to-all strategy's exchange (all_to_all_v) included.
    void byOpTakesEveryCollective() {
        for (const CollectiveOpInfo& info : collectiveOps()) {
            Json j = baseDocument();
            const std::string op(info.name);
            j["links"]["intra_node"]["by_op"][op] = {{"bandwidth_gigabytes_per_s", 123}};
            const Cluster c = readCluster(j.dump());
            QCOMPARE(c.link(LinkLevel::IntraNode, info.name).bandwidthBytesPerSecond, 123e9);
            QCOMPARE(c.link(LinkLevel::IntraNode).bandwidthBytesPerSecond, 450e9);
        }
    }

    void bandwidthInBytesPerSecond() {
        Json j = baseDocument();
        j["links"]["inter_node"].erase("bandwidth_gigabytes_per_s");
        j["links"]["inter_node"]["bandwidth_bytes_per_s"] = 12.5e9;
        QCOMPARE(readCluster(j.dump()).interNode.bandwidthBytesPerSecond, 12.5e9);
    }

    void everyPresetReads() {
        const auto names = clusterPresetNames();
        QCOMPARE(names, (std::vector<std::string>{"a100-dgx", "h100-dgx", "h200-hgx", "loopback"}));
        for (const auto& name : names) {
            Cluster c = readClusterPreset(name);
            QCOMPARE(c.name, name);    // the name inside is the file's name
            if (name != "loopback") {  // a GPU node (loopback: one host, tst_loopback_model)
                QCOMPARE(c.devicesPerNode, 8);
                QVERIFY(c.interNode.bandwidthBytesPerSecond < c.intraNode.bandwidthBytesPerSecond);
            }
            // The embedded text is the file's text, byte for byte.
            QCOMPARE(std::string(clusterPresetText(name)),
                     readText(kSource + "/resources/clusters/" + name + ".json"));
            QCOMPARE(resolveCluster(name).name, name);
        }
    }

    void presetFigures() {
        Cluster h100 = readClusterPreset("h100-dgx");
        QCOMPARE(h100.intraNode.bandwidthBytesPerSecond, 450e9);  // 900 GB/s both directions
        QCOMPARE(h100.interNode.bandwidthBytesPerSecond, 50e9);   // 400 Gb/s per GPU
        QCOMPARE(h100.device.peakFlops.bfloat16, 989e12);         // dense, not 1979 sparse
        QCOMPARE(h100.device.memoryBytes, int64_t{81559} << 20);  // nvidia-smi's memory.total
        Cluster a100 = readClusterPreset("a100-dgx");
        QCOMPARE(a100.intraNode.bandwidthBytesPerSecond, 300e9);
        QCOMPARE(a100.interNode.bandwidthBytesPerSecond, 25e9);
        QCOMPARE(a100.device.peakFlops.bfloat16, 312e12);
        QCOMPARE(a100.device.peakFlops.float32, 19.5e12);
        Cluster h200 = readClusterPreset("h200-hgx");
        QCOMPARE(h200.device.memoryBytes, int64_t{143771} << 20);
        QCOMPARE(h200.device.peakFlops.bfloat16, h100.device.peakFlops.bfloat16);
    }

    void theDocsExampleReads() {
        const auto blocks = docsClusterBlocks();
        QVERIFY(!blocks.empty());
        for (const auto& block : blocks) {
            try {
                Cluster c = readCluster(block);
                QVERIFY(c.worldSize() >= 1);
            } catch (const ClusterError& e) {
                QFAIL(e.what());
            }
        }
    }

    void malformed_data() {
        QTest::addColumn<int>("index");
        QVERIFY(errorCases().size() >= 15);
        for (size_t i = 0; i < errorCases().size(); ++i)
            QTest::newRow(errorCases()[i].tag) << int(i);
    }

    void malformed() {
        QFETCH(int, index);
        const ErrorCase& c = errorCases()[size_t(index)];
        Json j = baseDocument();
        c.change(j);
        try {
            readCluster(j.dump());
            QFAIL("read without an error");
        } catch (const ClusterError& e) {
            QCOMPARE(QString::fromStdString(e.path), QString(c.path));
            QVERIFY2(e.problem.find(c.mentions) != std::string::npos, e.what());
            // The message is "<path>: <problem>", as the scenario reader says it.
            const std::string expected =
                std::string(c.path).empty() ? e.problem : std::string(c.path) + ": " + e.problem;
            QCOMPARE(std::string(e.what()), expected);
        }
    }

    void syntaxErrorsHaveAPosition() {
        try {
            readCluster("{\n  \"format\": }");
            QFAIL("read without an error");
        } catch (const ClusterError& e) {
            QCOMPARE(e.path, std::string());
            QVERIFY2(e.problem.find("line 2, column") != std::string::npos, e.what());
        }
    }

    void duplicateKeysAreErrors() {
        try {
            readCluster(R"({"format": "hsdp-cluster/1", "format": "hsdp-cluster/1"})");
            QFAIL("read without an error");
        } catch (const ClusterError& e) {
            QVERIFY2(e.problem.find("duplicate") != std::string::npos, e.what());
        }
    }

    void fileErrorsNameTheFile() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("bad.json").toStdString();
        Json j = baseDocument();
        j["links"]["inter_node"]["bandwidth_gigabytes_per_s"] = "fast";
        std::ofstream(path) << j.dump();
        try {
            readClusterFile(path);
            QFAIL("read without an error");
        } catch (const ClusterError& e) {
            QCOMPARE(e.file, path);
            QCOMPARE(std::string(e.what()),
                     path +
                         ": /links/inter_node/bandwidth_gigabytes_per_s: expected a number > 0, "
                         "got \"fast\"");
        }
        try {
            readClusterFile(dir.filePath("absent.json").toStdString());
            QFAIL("read a missing file");
        } catch (const ClusterError& e) {
            QVERIFY2(
                std::string(e.what()).find("cannot read the cluster file") != std::string::npos,
                e.what());
        }
        // A path reads the file, not a preset.
        const std::string good = dir.filePath("h100-dgx").toStdString();
        std::ofstream(good) << baseDocument().dump();
        QCOMPARE(resolveCluster(good).name, std::string("test"));
    }

    void unknownPresetListsThePresets() {
        for (auto read : {std::function<void()>([] { readClusterPreset("b200-dgx"); }),
                          std::function<void()>([] { resolveCluster("b200-dgx"); })}) {
            try {
                read();
                QFAIL("read an unknown preset");
            } catch (const ClusterError& e) {
                QVERIFY2(
                    std::string(e.what()).find("a100-dgx, h100-dgx, h200-hgx") != std::string::npos,
                    e.what());
            }
        }
    }

    void defaultRankToNodeIsTorchrunsLayout() {
        Cluster c = twoNodes();
        QCOMPARE(c.rankToNode, (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1}));
        QCOMPARE(c.nodeOf(0), 0);
        QCOMPARE(c.nodeOf(3), 0);
        QCOMPARE(c.nodeOf(4), 1);
        QCOMPARE(c.nodeOf(7), 1);
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, c.nodeOf(8));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, c.nodeOf(-1));
    }

    void explicitRankToNode() {
        Cluster c = twoNodes({0, 1, 0, 1, 0, 1, 0, 1});
        QCOMPARE(c.nodeOf(0), 0);
        QCOMPARE(c.nodeOf(1), 1);
        QCOMPARE(c.nodeOf(6), 0);
        QCOMPARE(c.nodeOf(7), 1);
        QCOMPARE(c.linkLevelOf({0, 2, 4, 6}), LinkLevel::IntraNode);
        QCOMPARE(c.linkLevelOf({0, 1}), LinkLevel::InterNode);
    }

    void linkLevelOfAGroup() {
        Cluster c = twoNodes();
        QCOMPARE(c.linkLevelOf({}), LinkLevel::IntraNode);
        QCOMPARE(c.linkLevelOf({5}), LinkLevel::IntraNode);
        QCOMPARE(c.linkLevelOf({0, 1, 2, 3}), LinkLevel::IntraNode);
        QCOMPARE(c.linkLevelOf({4, 5, 6, 7}), LinkLevel::IntraNode);
        QCOMPARE(c.linkLevelOf({3, 4}), LinkLevel::InterNode);
        QCOMPARE(c.linkLevelOf({0, 4}), LinkLevel::InterNode);  // the replicate dim of HSDP
        QCOMPARE(c.linkLevelOf({0, 1, 2, 3, 4, 5, 6, 7}), LinkLevel::InterNode);
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, c.linkLevelOf({0, 8}));
        QCOMPARE(linkLevelName(LinkLevel::IntraNode), std::string_view("intra_node"));
        QCOMPARE(linkLevelName(LinkLevel::InterNode), std::string_view("inter_node"));
    }

    void withNodesScalesAPreset() {
        Cluster c = withNodes(readClusterPreset("h100-dgx"), 4);
        QCOMPARE(c.worldSize(), 32);
        QCOMPARE(c.nodeOf(31), 3);
        QCOMPARE(c.linkLevelOf({0, 8, 16, 24}), LinkLevel::InterNode);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, withNodes(c, 0));
    }
};

QTEST_APPLESS_MAIN(TestClusterReader)
#include "tst_cluster_reader.moc"
