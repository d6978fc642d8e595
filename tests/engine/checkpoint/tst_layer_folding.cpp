// SPDX-License-Identifier: Apache-2.0
// Folding a checkpoint's tensors into repeat blocks: identical layers become
// one block (experts nested inside), a change of kind starts a block of its
// own from its first index ("start"), a layer that differs stays as it is,
// and every folded list expands back, through the scenario reader, to
// exactly the names, shapes and order it came from.
#include <QtTest>

#include "checkpoint/detail/layer_folding.h"
#include "scenario/reader.h"

using namespace hsdp;

namespace {

Json members(std::vector<int64_t> shape, const char* dtype = "bf16") {
    return {{"shape", shape}, {"dtype", dtype}, {"placements", {"Shard(0)"}}};
}

std::vector<FoldEntry> layers(int from, int to, int64_t width, int experts = 0) {
    std::vector<FoldEntry> out;
    for (int i = from; i < to; ++i) {
        const std::string p = "model.layers." + std::to_string(i) + ".";
        out.push_back({p + "input_layernorm.weight", members({8})});
        out.push_back({p + "self_attn.q_proj.weight", members({8, 8})});
        if (experts == 0) out.push_back({p + "mlp.up_proj.weight", members({width, 8})});
        for (int e = 0; e < experts; ++e)
            out.push_back(
                {p + "mlp.experts." + std::to_string(e) + ".w1.weight", members({width, 8})});
    }
    return out;
}

// The folded params read back by the scenario reader: names and shapes in order.
std::vector<std::pair<std::string, std::vector<int64_t>>> expand(const Json& params) {
    Json doc = {{"format", "hsdp-scenario/1"},
                {"name", "t"},
                {"mesh", {{"shape", {1}}, {"dim_names", {"dp_shard"}}}},
                {"params", params}};
    std::vector<std::pair<std::string, std::vector<int64_t>>> out;
    for (const ParamSpec& p : readScenarioJson(doc).params) out.emplace_back(p.name, p.shape);
    return out;
}

std::vector<std::pair<std::string, std::vector<int64_t>>> flat(
    const std::vector<FoldEntry>& entries) {
    std::vector<std::pair<std::string, std::vector<int64_t>>> out;
    for (const FoldEntry& e : entries)
        out.emplace_back(e.name, e.members["shape"].get<std::vector<int64_t>>());
    return out;
}

}  // namespace

class TestLayerFolding : public QObject {
    Q_OBJECT
private slots:
    void identicalLayersBecomeOneBlock() {
        std::vector<FoldEntry> entries = {{"model.embed_tokens.weight", members({32, 8})}};
        for (FoldEntry& e : layers(0, 12, 16)) entries.push_back(e);
        entries.push_back({"model.norm.weight", members({8})});
        const Json folded = foldRepeatedLayers(entries);
        QCOMPARE(folded.size(), size_t(3));
        QCOMPARE(folded[1]["repeat"].get<int>(), 12);
        QVERIFY(!folded[1].contains("start"));
        QCOMPARE(folded[1]["var"].get<std::string>(), std::string("i"));
        QCOMPARE(folded[1]["params"][1]["name"].get<std::string>(),
                 std::string("model.layers.{i}.self_attn.q_proj.weight"));
        QCOMPARE(expand(folded), flat(entries));
    }

    void expertsNestInsideLayersAndAChangeOfKindStartsAtItsIndex() {
        // DeepSeek-like: 3 dense layers, then 5 with 4 experts each.
        std::vector<FoldEntry> entries = layers(0, 3, 16);
        for (FoldEntry& e : layers(3, 8, 4, 4)) entries.push_back(e);
        const Json folded = foldRepeatedLayers(entries);
        QCOMPARE(folded.size(), size_t(2));
        QCOMPARE(folded[0]["repeat"].get<int>(), 3);
        QCOMPARE(folded[1]["repeat"].get<int>(), 5);
        QCOMPARE(folded[1]["start"].get<int>(), 3);
        const Json& experts = folded[1]["params"][2];
        QCOMPARE(experts["repeat"].get<int>(), 4);
        QCOMPARE(experts["var"].get<std::string>(), std::string("e"));
        QCOMPARE(experts["params"][0]["name"].get<std::string>(),
                 std::string("model.layers.{i}.mlp.experts.{e}.w1.weight"));
        QCOMPARE(expand(folded), flat(entries));
    }

    void aLayerThatDiffersBreaksTheRun() {
        std::vector<FoldEntry> entries = layers(0, 6, 16);
        entries[3 * 3 + 2].members = members({16, 8}, "f32");  // layer 3's up_proj dtype
        const Json folded = foldRepeatedLayers(entries);
        // Layers 0-2 a block, layer 3 written out, layers 4-5 a block from 4.
        QCOMPARE(folded.size(), size_t(5));
        QCOMPARE(folded[0]["repeat"].get<int>(), 3);
        QCOMPARE(folded[1]["name"].get<std::string>(),
                 std::string("model.layers.3.input_layernorm.weight"));
        QCOMPARE(folded[4]["start"].get<int>(), 4);
        QCOMPARE(expand(folded), flat(entries));
    }

    void gapsAndOddIndicesStayAsWritten() {
        std::vector<FoldEntry> entries = layers(0, 2, 16);
        for (FoldEntry& e : layers(5, 6, 16)) entries.push_back(e);  // a gap: 0, 1, 5
        entries.push_back({"h.07.weight", members({4})});            // leading zero: not an index
        entries.push_back({"h.08.weight", members({4})});
        entries.push_back({"bias.3", members({4})});  // index last: nothing to fold
        const Json folded = foldRepeatedLayers(entries);
        QCOMPARE(folded[0]["repeat"].get<int>(), 2);
        QCOMPARE(folded[1]["name"].get<std::string>(),
                 std::string("model.layers.5.input_layernorm.weight"));
        QCOMPARE(expand(folded), flat(entries));
        QVERIFY(folded.dump().find("h.07.weight") != std::string::npos);
    }

    void namesFoldForMessages() {
        std::vector<std::string> names;
        for (int i = 0; i < 32; ++i)
            names.push_back("model.layers." + std::to_string(i) + ".self_attn.qkv_proj.weight");
        names.push_back("lm_head.weight");
        const auto folded = foldNamesForMessage(names);
        QCOMPARE(folded.size(), size_t(2));
        QCOMPARE(folded[0], std::string("model.layers.{i}.self_attn.qkv_proj.weight (i = 0…31)"));
        QCOMPARE(folded[1], std::string("lm_head.weight"));
    }
};

QTEST_APPLESS_MAIN(TestLayerFolding)
#include "tst_layer_folding.moc"
