// SPDX-License-Identifier: Apache-2.0
#pragma once
// Checkpoints of models outside --from-config's seven families, their
// tensors as the published checkpoints name and shape them (from the
// models' public config.json), and a writer that splits any tensor list
// over shard files with an index, as Hugging Face's save_pretrained does.

#include <QDir>
#include <QString>

#include "safetensors_writer.h"

namespace hsdp::testing {

// microsoft/Phi-3-mini-4k-instruct: hidden 3072, 32 layers, 32 heads (no
// GQA), MLP 8192, vocabulary 32064, untied; fused qkv_proj and gate_up_proj.
// 3,821,079,552 parameters.
inline std::vector<TensorSpec> phi3MiniTensors() {
    const int64_t h = 3072, f = 8192, v = 32064;
    std::vector<TensorSpec> t = {{"model.embed_tokens.weight", "BF16", {v, h}, {}}};
    for (int i = 0; i < 32; ++i) {
        const std::string p = "model.layers." + std::to_string(i) + ".";
        t.push_back({p + "self_attn.qkv_proj.weight", "BF16", {3 * h, h}, {}});
        t.push_back({p + "self_attn.o_proj.weight", "BF16", {h, h}, {}});
        t.push_back({p + "mlp.gate_up_proj.weight", "BF16", {2 * f, h}, {}});
        t.push_back({p + "mlp.down_proj.weight", "BF16", {h, f}, {}});
        t.push_back({p + "input_layernorm.weight", "BF16", {h}, {}});
        t.push_back({p + "post_attention_layernorm.weight", "BF16", {h}, {}});
    }
    t.push_back({"model.norm.weight", "BF16", {h}, {}});
    t.push_back({"lm_head.weight", "BF16", {v, h}, {}});
    return t;
}

inline const char* const kPhi3MiniConfig = R"({"architectures": ["Phi3ForCausalLM"],
  "model_type": "phi3", "hidden_size": 3072, "intermediate_size": 8192,
  "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 32,
  "vocab_size": 32064, "tie_word_embeddings": false, "torch_dtype": "bfloat16"})";

// google/gemma-2-2b: hidden 2304, 26 layers, 8 heads of 256, 4 key/value
// heads, MLP 9216, vocabulary 256000, tied (no lm_head); four norms a layer.
// 2,614,341,888 parameters.
inline std::vector<TensorSpec> gemma2_2bTensors() {
    const int64_t h = 2304, f = 9216, v = 256000, q = 8 * 256, kv = 4 * 256;
    std::vector<TensorSpec> t = {{"model.embed_tokens.weight", "BF16", {v, h}, {}}};
    for (int i = 0; i < 26; ++i) {
        const std::string p = "model.layers." + std::to_string(i) + ".";
        t.push_back({p + "self_attn.q_proj.weight", "BF16", {q, h}, {}});
        t.push_back({p + "self_attn.k_proj.weight", "BF16", {kv, h}, {}});
        t.push_back({p + "self_attn.v_proj.weight", "BF16", {kv, h}, {}});
        t.push_back({p + "self_attn.o_proj.weight", "BF16", {h, q}, {}});
        t.push_back({p + "mlp.gate_proj.weight", "BF16", {f, h}, {}});
        t.push_back({p + "mlp.up_proj.weight", "BF16", {f, h}, {}});
        t.push_back({p + "mlp.down_proj.weight", "BF16", {h, f}, {}});
        for (const char* norm : {"input_layernorm", "post_attention_layernorm",
                                 "pre_feedforward_layernorm", "post_feedforward_layernorm"})
            t.push_back({p + norm + ".weight", "BF16", {h}, {}});
    }
    t.push_back({"model.norm.weight", "BF16", {h}, {}});
    return t;
}

inline const char* const kGemma2_2bConfig = R"({"architectures": ["Gemma2ForCausalLM"],
  "model_type": "gemma2", "hidden_size": 2304, "intermediate_size": 9216,
  "num_hidden_layers": 26, "num_attention_heads": 8, "num_key_value_heads": 4,
  "head_dim": 256, "vocab_size": 256000, "torch_dtype": "bfloat16"})";

// Splits `tensors` in order over `files` sparse shards
// model-0000k-of-0000n.safetensors of about equal size in `dir`, with
// model.safetensors.index.json (total_size: `totalSize`, or the tensors'
// bytes when not given). Returns the files' paths.
inline std::vector<std::string> writeShardedCheckpoint(const QString& dir,
                                                       const std::vector<TensorSpec>& tensors,
                                                       int files,
                                                       std::optional<uint64_t> totalSize = {}) {
    const uint64_t total = dataBytesOf(tensors);
    std::vector<std::vector<TensorSpec>> shards(static_cast<size_t>(files));
    uint64_t written = 0;
    for (const TensorSpec& t : tensors) {
        const size_t k = std::min(size_t(files - 1), size_t(written * uint64_t(files) / total));
        shards[k].push_back(t);
        written += tensorBytes(t);
    }
    std::vector<std::pair<std::string, std::string>> weightMap;
    std::vector<std::string> paths;
    for (int k = 0; k < files; ++k) {
        const std::string name =
            QString::asprintf("model-%05d-of-%05d.safetensors", k + 1, files).toStdString();
        paths.push_back(QDir(dir).filePath(QString::fromStdString(name)).toStdString());
        writeSafetensors(paths.back(), shards[size_t(k)], true, {{"format", "pt"}});
        for (const TensorSpec& t : shards[size_t(k)]) weightMap.emplace_back(t.name, name);
    }
    writeShardIndex(QDir(dir).filePath("model.safetensors.index.json").toStdString(), weightMap,
                    totalSize.value_or(total));
    return paths;
}

}  // namespace hsdp::testing
