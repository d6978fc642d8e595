// SPDX-License-Identifier: Apache-2.0
#include "hf_config/model_config.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "hf_config/model_config_error.h"
#include "scenario/input_file.h"
#include "scenario/reader.h"
#include "scenario/scenario_error.h"

namespace hsdp {

namespace {

constexpr int64_t kMaxConfigInteger = (int64_t(1) << 31) - 1;
// More layers than any model has; keeps a typo from expanding to millions of entries.
constexpr int64_t kMaxLayers = 100000;

// Typed access to the config's top-level fields with errors that name them.
class Fields {
public:
    Fields(const Json& document, std::string source) : doc_(document), source_(std::move(source)) {}

    [[noreturn]] void fail(const std::string& field, const std::string& rule) const {
        throw ModelConfigError(source_ + ": " + field + ": " + rule);
    }
    bool has(const std::string& key) const { return doc_.contains(key) && !doc_[key].is_null(); }

    int64_t positive(const std::string& key) const {
        if (!has(key)) fail(key, "missing (required by " + modelType() + ")");
        return checkedPositive(key);
    }
    int64_t positiveOr(const std::string& key, int64_t fallback) const {
        return has(key) ? checkedPositive(key) : fallback;
    }
    int64_t nonNegativeOr(const std::string& key, int64_t fallback) const {
        if (!has(key)) return fallback;
        const Json& value = doc_[key];
        if (!value.is_number_integer() || value.get<int64_t>() < 0)
            fail(key, "expected an integer >= 0, got " + value.dump());
        return value.get<int64_t>();
    }
    std::optional<int64_t> optionalPositive(const std::string& key) const {
        if (!has(key)) return std::nullopt;
        return checkedPositive(key);
    }
    bool boolean(const std::string& key, bool fallback) const {
        if (!has(key)) return fallback;
        if (!doc_[key].is_boolean()) fail(key, "expected true or false, got " + doc_[key].dump());
        return doc_[key].get<bool>();
    }
    std::vector<int64_t> integerList(const std::string& key) const {
        if (!has(key)) return {};
        const Json& value = doc_[key];
        if (!value.is_array()) fail(key, "expected a list of layer indices, got " + value.dump());
        std::vector<int64_t> out;
        for (const Json& v : value) {
            if (!v.is_number_integer()) fail(key, "expected integers, got " + v.dump());
            out.push_back(v.get<int64_t>());
        }
        return out;
    }
    std::string modelType() const { return modelType_; }
    void setModelType(std::string type) { modelType_ = std::move(type); }

private:
    // Sizes stay below 2^31 so that no product of three overflows 64 bits.
    int64_t checkedPositive(const std::string& key) const {
        const Json& value = doc_[key];
        if (!value.is_number_integer() || value.get<int64_t>() < 1 ||
            value.get<int64_t>() > kMaxConfigInteger)
            fail(key, "expected a positive integer below 2^31, got " + value.dump());
        return value.get<int64_t>();
    }

    const Json& doc_;
    std::string source_;
    std::string modelType_;
};

const ArchitectureFamily& resolveFamily(const Json& doc, Fields& fields, std::string& label) {
    std::string modelType, archClass;
    if (fields.has("model_type")) {
        if (!doc["model_type"].is_string())
            fields.fail("model_type", "expected a string, got " + doc["model_type"].dump());
        modelType = doc["model_type"].get<std::string>();
    }
    if (fields.has("architectures") && doc["architectures"].is_array() &&
        !doc["architectures"].empty() && doc["architectures"][0].is_string())
        archClass = doc["architectures"][0].get<std::string>();
    if (modelType.empty() && archClass.empty())
        fields.fail("model_type", "missing (neither model_type nor architectures[0] is given)");
    // model_type decides: it is what transformers dispatches on.
    const std::string key = modelType.empty() ? archClass : modelType;
    const ArchitectureFamily* family = findArchitectureFamily(key);
    if (!family)
        fields.fail(
            modelType.empty() ? "architectures" : "model_type",
            "unknown architecture '" + key + "' (supported: " + supportedModelTypes() + ")");
    label = archClass.empty() ? modelType : archClass;
    fields.setModelType(std::string(family->modelType));
    return *family;
}

void readAttention(const Fields& f, ModelConfig& c) {
    c.numHeads = f.positive("num_attention_heads");
    c.numKeyValueHeads = f.positiveOr("num_key_value_heads", c.numHeads);
    if (c.family->attention == AttentionKind::MultiHeadLatent) {
        c.qLoraRank = f.optionalPositive("q_lora_rank");
        c.kvLoraRank = f.positive("kv_lora_rank");
        c.qkRopeHeadDim = f.positive("qk_rope_head_dim");
        c.qkNopeHeadDim = f.positive("qk_nope_head_dim");
        c.vHeadDim = f.positive("v_head_dim");
        return;
    }
    if (auto headDim = f.optionalPositive("head_dim")) {
        c.headDim = *headDim;
    } else {
        if (c.hiddenSize % c.numHeads != 0)
            f.fail("num_attention_heads", std::to_string(c.numHeads) +
                                              " does not divide hidden_size " +
                                              std::to_string(c.hiddenSize));
        c.headDim = c.hiddenSize / c.numHeads;
    }
    if (c.numHeads % c.numKeyValueHeads != 0)
        f.fail("num_key_value_heads",
               std::to_string(c.numKeyValueHeads) + " does not divide num_attention_heads " +
                   std::to_string(c.numHeads) +
                   " (each key/value head serves a whole group of query heads)");
}

void readQwen2Moe(const Fields& f, ModelConfig& c) {
    c.numExperts = f.positive("num_experts");
    c.moeIntermediateSize = f.positive("moe_intermediate_size");
    c.sharedExpertIntermediate = f.nonNegativeOr("shared_expert_intermediate_size", 0);
    const int64_t step = f.positiveOr("decoder_sparse_step", 1);
    const std::vector<int64_t> mlpOnly = f.integerList("mlp_only_layers");
    for (int64_t layer : mlpOnly)
        if (layer < 0 || layer >= c.numLayers)
            f.fail("mlp_only_layers", "layer " + std::to_string(layer) +
                                          " is not below num_hidden_layers " +
                                          std::to_string(c.numLayers));
    // transformers' Qwen2MoeDecoderLayer: sparse unless listed, every step-th layer.
    for (int64_t i = 0; i < c.numLayers; ++i)
        c.moeLayer[size_t(i)] =
            std::find(mlpOnly.begin(), mlpOnly.end(), i) == mlpOnly.end() && (i + 1) % step == 0;
}

void readDeepSeekMoe(const Fields& f, ModelConfig& c) {
    c.numExperts = f.positive("n_routed_experts");
    c.numSharedExperts = f.nonNegativeOr("n_shared_experts", 0);
    c.moeIntermediateSize = f.positive("moe_intermediate_size");
    const int64_t firstDense = f.nonNegativeOr("first_k_dense_replace", 0);
    const int64_t freq = f.positiveOr("moe_layer_freq", 1);
    if (firstDense > c.numLayers)
        f.fail("first_k_dense_replace", std::to_string(firstDense) + " exceeds num_hidden_layers " +
                                            std::to_string(c.numLayers));
    // transformers' DeepseekV3: MoE from layer first_k_dense_replace on, every freq-th.
    for (int64_t i = 0; i < c.numLayers; ++i)
        c.moeLayer[size_t(i)] = i >= firstDense && i % freq == 0;
}

void readMoe(const Fields& f, ModelConfig& c) {
    c.moeLayer.assign(size_t(c.numLayers), false);
    switch (c.family->moe) {
        case MoeKind::Dense:
            return;
        case MoeKind::Mixtral:
            c.numExperts = f.positive("num_local_experts");
            c.moeIntermediateSize = c.intermediateSize;
            c.moeLayer.assign(size_t(c.numLayers), true);
            return;
        case MoeKind::Qwen2Moe:
            return readQwen2Moe(f, c);
        case MoeKind::DeepSeek:
            return readDeepSeekMoe(f, c);
    }
}

}  // namespace

ModelConfig readModelConfig(const Json& document, const std::string& source) {
    if (!document.is_object())
        throw ModelConfigError(source + ": expected a JSON object (a Hugging Face config.json)");
    Fields f(document, source);
    ModelConfig c;
    c.family = &resolveFamily(document, f, c.architecture);
    c.vocabSize = f.positive("vocab_size");
    c.hiddenSize = f.positive("hidden_size");
    c.numLayers = f.positive("num_hidden_layers");
    if (c.numLayers > kMaxLayers)
        f.fail("num_hidden_layers", "expected at most " + std::to_string(kMaxLayers) + ", got " +
                                        std::to_string(c.numLayers));
    c.intermediateSize = f.positive("intermediate_size");
    c.tieWordEmbeddings = f.boolean("tie_word_embeddings", false);
    c.attentionBias = f.boolean("attention_bias", false);
    c.mlpBias = f.boolean("mlp_bias", false);
    readAttention(f, c);
    readMoe(f, c);
    return c;
}

std::string configModelType(const Json& document) {
    if (!document.is_object()) return {};
    if (auto type = document.find("model_type");
        type != document.end() && type->is_string() && !type->get<std::string>().empty())
        return type->get<std::string>();
    if (auto list = document.find("architectures");
        list != document.end() && list->is_array() && !list->empty() && list->front().is_string())
        return list->front().get<std::string>();
    return {};
}

bool isKnownModelFamily(const Json& document) {
    return findArchitectureFamily(configModelType(document)) != nullptr;
}

Json readModelConfigJson(const std::string& path) {
    std::string text;
    try {
        text = readInputFile(path, kMaxScenarioBytes);
    } catch (const InputFileError& error) {
        throw ModelConfigError(inputFileMessage(path, "model config", error));
    }
    try {
        return parseStrictJson(text);
    } catch (const ScenarioError& error) {
        throw ModelConfigError(path + ": not valid JSON: " + error.problem);
    }
}

ModelConfig readModelConfigFile(const std::string& path) {
    return readModelConfig(readModelConfigJson(path), path);
}

}  // namespace hsdp
