// SPDX-License-Identifier: Apache-2.0
#include "checkpoint/scenario_from_checkpoint.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "checkpoint/checkpoint_error.h"
#include "checkpoint/detail/config_check.h"
#include "checkpoint/detail/layer_folding.h"
#include "checkpoint/detail/piece_coverage.h"
#include "checkpoint/detail/saved_mesh.h"
#include "checkpoint/saved_sharding.h"
#include "hf_config/param_role.h"
#include "hf_config/placement_rules.h"
#include "hf_config/tp_transitions.h"

namespace hsdp {

namespace {

using Placements = std::vector<Placement>;

// PyTorch's spelling, as --from-config writes placements.
std::string torchText(const Placement& p) {
    switch (p.kind) {
        case Placement::Kind::Shard:
            return "Shard(" + std::to_string(p.dim) + ")";
        case Placement::Kind::StridedShard:
            return "_StridedShard(dim=" + std::to_string(p.dim) +
                   ", sf=" + std::to_string(p.splitFactor) + ")";
        default:
            return "Replicate()";
    }
}

std::string listText(const std::vector<std::string>& items, size_t cap) {
    std::string text;
    for (size_t i = 0; i < items.size() && i < cap; ++i) text += (i ? "; " : "") + items[i];
    if (items.size() > cap) text += "; … (" + std::to_string(items.size()) + " in all)";
    return text;
}

// "1 tensor", "3 tensors".
std::string countOf(size_t n, const std::string& noun) {
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

std::string piecesText(const CheckpointTensor& t) {
    std::vector<std::string> pieces;
    for (const TensorPiece& p : t.pieces) pieces.push_back(pieceText(p));
    std::string text;
    for (size_t i = 0; i < pieces.size() && i < 4; ++i) text += (i ? ", " : "") + pieces[i];
    if (pieces.size() > 4) text += ", … (" + std::to_string(pieces.size()) + " pieces)";
    return t.name + " " + text;
}

class Builder {
public:
    Builder(const Checkpoint& c, const CheckpointScenarioRequest& r) : c_(c), r_(r) {
        out_.notes = c.notes;
        config_ = checkCheckpointConfig(c, out_.notes);
        order();
        resolveDTypes();
    }

    CheckpointScenario build() {
        out_.savedSharding = c_.savedSharding && !r_.ignoreSavedSharding;
        if (out_.savedSharding)
            placeAsSaved();
        else
            placeByRules();
        if (r_.tpTransitions && out_.layout.tp > 1) transitions_ = tpTransitions();
        out_.document = document();
        return std::move(out_);
    }

private:
    // A known family's parameters in the model's order, the others after.
    void order() {
        for (const CheckpointTensor& t : c_.tensors) tensors_.push_back(&t);
        std::stable_sort(tensors_.begin(), tensors_.end(), [&](const auto* a, const auto* b) {
            const auto ia = config_.order.find(a->name), ib = config_.order.find(b->name);
            const size_t na = ia == config_.order.end() ? SIZE_MAX : ia->second;
            const size_t nb = ib == config_.order.end() ? SIZE_MAX : ib->second;
            return na < nb;
        });
    }

    void resolveDTypes() {
        std::map<std::string, std::vector<std::string>> unsupported;
        for (const CheckpointTensor* t : tensors_) {
            const auto dtype = r_.dtype ? r_.dtype : t->dtype->scenario;
            if (!dtype) unsupported[std::string(t->dtype->name)].push_back(t->name);
            dtypes_.push_back(dtype.value_or(DType::F32));
        }
        if (unsupported.empty()) return;
        std::vector<std::string> kinds;
        for (const auto& [dtype, names] : unsupported)
            kinds.push_back(dtype + ": " + listText(foldNamesForMessage(names), 3));
        throw CheckpointError(c_.source, "",
                              "tensors of dtypes a scenario cannot hold (it has bf16, f16, f32, "
                              "f64): " +
                                  listText(kinds, 4) +
                                  "; --dtype bf16 (or f32, f16, f64) gives every tensor one");
    }

    std::optional<ParamRole> roleOf(const CheckpointTensor& t) const {
        if (auto it = config_.roles.find(t.name); it != config_.roles.end()) return it->second;
        return tpRoleForName(t.name);
    }

    // The placements the rules give on `layout` (FSDP2, and torchtitan's TP
    // plan by name); nullopt for a buffer. `placeable` turns false when tp
    // must split a tensor no rule knows (stacked experts' layouts differ by
    // model, so tp does not place them either).
    std::optional<Placements> rulePlacements(const CheckpointTensor& t,
                                             const ParallelLayout& layout, bool& placeable) const {
        placeable = true;
        const size_t dims = denseMesh(layout).dimNames.size();
        if (t.shape.empty()) return Placements(dims, Placement::replicate());
        std::optional<ParamRole> role = roleOf(t);
        if (role == ParamRole::Buffer) return std::nullopt;
        if (role && onExpertMesh(*role)) role.reset();
        if (layout.tp > 1 && !role) placeable = false;
        // Kept: a range-for over *temporary would outlive the optional.
        const auto texts = placementsFor(role.value_or(ParamRole::Replicated), layout);
        Placements out;
        for (const std::string& text : *texts) out.push_back(*parsePlacement(text));
        return out;
    }

    void placeByRules() {
        if (!r_.layout)
            throw CheckpointError("", "",
                                  "--mesh is needed: the checkpoint carries no saved sharding to "
                                  "reconstruct (e.g. --mesh dp_replicate=2,dp_shard=8,tp=4)");
        out_.layout = *r_.layout;
        if (out_.layout.ep > 1)
            throw CheckpointError(
                "", "",
                "--mesh: ep=" + std::to_string(out_.layout.ep) +
                    " is not supported from a checkpoint (it holds one tensor per "
                    "expert as saved; --from-config stacks them)");
        if (c_.savedSharding)
            out_.notes.push_back("the saved sharding of the " + std::to_string(c_.writers) +
                                 " ranks that wrote it is ignored (--ignore-saved-sharding)");
        checkLayoutAgainstConfig(config_, out_.layout);
        std::vector<std::string> unplaced;
        for (const CheckpointTensor* t : tensors_) {
            bool placeable = true;
            placements_.push_back(rulePlacements(*t, out_.layout, placeable));
            if (!placeable) unplaced.push_back(t->name);
        }
        if (!unplaced.empty())
            throw CheckpointError(
                c_.source, "",
                "tp=" + std::to_string(out_.layout.tp) + " cannot place " +
                    countOf(unplaced.size(), "tensor") +
                    " whose names no tensor-parallel rule knows (the rules are those of "
                    "llama, mistral, mixtral, qwen2, qwen2_moe, deepseek_v3): " +
                    listText(foldNamesForMessage(unplaced), 6) +
                    "; use tp=1 (FSDP alone places any tensor)");
    }

    // Fits every tensor on `layout`; the indices of those nothing fits.
    // `matches` counts the tensors whose fit is what the rules expect.
    std::vector<size_t> fitAll(const ParallelLayout& layout, bool stopAtFirst,
                               std::vector<std::optional<Placements>>& fitted,
                               size_t* matches = nullptr) {
        fitted.assign(tensors_.size(), std::nullopt);
        std::vector<size_t> unfit;
        const std::vector<int64_t> mesh = denseMesh(layout).shape;
        for (size_t i = 0; i < tensors_.size(); ++i) {
            const CheckpointTensor& t = *tensors_[i];
            bool placeable = true;
            const auto rules = rulePlacements(t, layout, placeable);
            const Placements preferred =
                rules ? *rules : Placements(mesh.size(), Placement::replicate());
            if (!t.irregularPieces)
                fitted[i] = fitSavedPlacements(t.shape, t.pieces, mesh, preferred);
            if (!fitted[i]) {
                unfit.push_back(i);
                if (stopAtFirst) break;
            } else if (matches && *fitted[i] == preferred) {
                ++*matches;
            }
        }
        return unfit;
    }

    [[noreturn]] void failUnfit(const std::vector<size_t>& unfit, const ParallelLayout& layout,
                                const std::string& advice) const {
        std::vector<std::string> described;
        for (size_t i : unfit) described.push_back(piecesText(*tensors_[i]));
        throw CheckpointError(c_.source, "",
                              "the saved pieces of " + countOf(unfit.size(), "tensor") +
                                  " fit no DTensor placement on " + layoutText(layout) + " (" +
                                  std::to_string(c_.writers) + " ranks wrote the checkpoint): " +
                                  listText(described, 4) + advice);
    }

    void placeAsSaved() {
        std::vector<std::optional<Placements>> fitted;
        if (r_.layout) {
            out_.layout = *r_.layout;
            checkSavedLayout();
            const auto unfit = fitAll(out_.layout, false, fitted);
            if (!unfit.empty())
                failUnfit(unfit, out_.layout,
                          "; leave --mesh out to infer the saved mesh, or "
                          "--ignore-saved-sharding to place the tensors afresh");
        } else {
            inferSavedLayout(fitted);
        }
        for (size_t i = 0; i < tensors_.size(); ++i) {
            const bool buffer = roleOf(*tensors_[i]) == ParamRole::Buffer &&
                                std::all_of(fitted[i]->begin(), fitted[i]->end(),
                                            [](const Placement& p) { return p.isReplicate(); });
            placements_.push_back(buffer ? std::nullopt : fitted[i]);
        }
    }

    void checkSavedLayout() const {
        const ParallelLayout& l = out_.layout;
        if (l.ep > 1)
            throw CheckpointError("", "", "--mesh: ep is not supported from a checkpoint");
        if (l.worldSize() < c_.writers)
            throw CheckpointError("", "",
                                  "--mesh: " + layoutText(l) + " is " +
                                      std::to_string(l.worldSize()) + " ranks, but " +
                                      std::to_string(c_.writers) +
                                      " ranks wrote the checkpoint (shard files up to rank " +
                                      std::to_string(c_.writers - 1) + ")");
    }

    // Of the layouts of the writers every tensor fits with the fewest dims,
    // the one where most tensors sit as the rules expect (a dim only FSDP
    // shards is dp_shard, one that splits o_proj's columns is tp); HSDP
    // never shards over dp_replicate, so a fit that does is no candidate.
    // The others that fit are named in a note.
    void inferSavedLayout(std::vector<std::optional<Placements>>& fitted) {
        std::vector<std::string> alternatives;
        std::optional<ParallelLayout> chosen;
        size_t best = 0;
        for (const ParallelLayout& l : savedLayoutCandidates(c_.writers)) {
            if (chosen && layoutDims(l) > layoutDims(*chosen)) break;
            std::vector<std::optional<Placements>> trial;
            size_t matches = 0;
            if (!fitAll(l, true, trial, &matches).empty() || shardsOverReplicate(l, trial))
                continue;
            if (chosen && matches <= best) {
                alternatives.push_back(layoutText(l));
                continue;
            }
            if (chosen) alternatives.push_back(layoutText(*chosen));
            chosen = l;
            best = matches;
            fitted = std::move(trial);
        }
        if (!chosen) {
            const ParallelLayout flat{1, c_.writers, 1, 1};
            std::vector<std::optional<Placements>> trial;
            failUnfit(fitAll(flat, false, trial), flat,
                      "; nor on any other layout of " + std::to_string(c_.writers) +
                          " ranks; pass --mesh to name the saved mesh");
        }
        out_.layout = *chosen;
        std::string note = "saved mesh inferred from the pieces of the " +
                           std::to_string(c_.writers) +
                           " ranks that wrote them: " + layoutText(*chosen);
        if (!alternatives.empty())
            note += " (the pieces also fit " + listText(alternatives, 4) +
                    ", where fewer tensors sit as the TP rules expect)";
        out_.notes.push_back(note +
                             "; the pieces show how each mesh dim splits the tensors, not "
                             "its name: pass --mesh to name the dims yourself");
    }

    static bool shardsOverReplicate(const ParallelLayout& l,
                                    const std::vector<std::optional<Placements>>& fitted) {
        if (l.dpReplicate == 1) return false;
        return std::any_of(fitted.begin(), fitted.end(),
                           [](const auto& p) { return p && !p->front().isReplicate(); });
    }

    int64_t hiddenSize() const {
        if (config_.known) return config_.known->hiddenSize;
        for (const CheckpointTensor* t : tensors_) {
            const std::string& n = t->name;
            const std::string tail = "embed_tokens.weight";
            if (n.size() >= tail.size() &&
                n.compare(n.size() - tail.size(), tail.size(), tail) == 0 && t->shape.size() == 2)
                return t->shape[1];
        }
        throw CheckpointError(c_.source, "",
                              "--tp-plan torchtitan needs the hidden size: no config.json of a "
                              "known family and no 2-D embed_tokens.weight");
    }

    Json tpTransitions() const {
        const DType dtype = r_.dtype.value_or(dtypes_.empty() ? DType::BF16 : dtypes_.front());
        return torchtitanTpTransitions(hiddenSize(), out_.layout, dtype, "");
    }

    std::string modelLabel() const {
        if (!config_.modelType.empty()) return config_.modelType;
        std::filesystem::path p(c_.source);
        while (!p.empty() && p.filename().empty()) p = p.parent_path();
        return p.filename().string();
    }

    std::string description() const {
        std::string text = "Generated from the checkpoint " + c_.source + " (" +
                           std::to_string(c_.files.size()) + " safetensors files, " +
                           std::to_string(c_.tensors.size()) + " tensors, " +
                           std::to_string(c_.numel()) + " elements); ";
        if (out_.savedSharding)
            return text + "placements reconstructed from the pieces the " +
                   std::to_string(c_.writers) + " ranks saved (DCP_SHARDING_INFO) on " +
                   layoutText(out_.layout) + "." + optimizerText(r_.allMuon);
        text += "layout " + layoutText(out_.layout) +
                " as FSDP2 places it: Shard(0) over dp_shard, Replicate() over dp_replicate";
        if (out_.layout.tp > 1)
            text += ", after torchtitan's TP plan by the tensors' names (as --from-config)";
        return text + "." + optimizerText(r_.allMuon);
    }

    Json document() const {
        std::vector<FoldEntry> entries;
        for (size_t i = 0; i < tensors_.size(); ++i) {
            Json members = {{"shape", tensors_[i]->shape},
                            {"dtype", std::string(dtypeName(dtypes_[i]))}};
            if (placements_[i]) {
                Json list = Json::array();
                for (const Placement& p : *placements_[i]) list.push_back(torchText(p));
                members["placements"] = std::move(list);
                if (!r_.allMuon && adamwByDefault(tensors_[i]->name, tensors_[i]->shape.size()))
                    members["optimizer"] = "adamw";
            } else {
                members["requires_grad"] = false;  // a buffer: no optimizer step
            }
            entries.push_back({tensors_[i]->name, std::move(members)});
        }
        const LayoutMesh mesh = denseMesh(out_.layout);
        Json doc = {{"format", "hsdp-scenario/1"}};
        doc["name"] = r_.name.empty() ? modelLabel() + ", " + layoutText(out_.layout) +
                                            (out_.savedSharding ? " (as saved)" : "")
                                      : r_.name;
        doc["description"] = description();
        doc["mesh"] = {{"shape", mesh.shape}, {"dim_names", mesh.dimNames}};
        doc["params"] = foldRepeatedLayers(entries);
        if (!transitions_.is_null() && !transitions_.empty()) doc["tp_transitions"] = transitions_;
        return doc;
    }

    const Checkpoint& c_;
    const CheckpointScenarioRequest& r_;
    CheckpointScenario out_;
    CheckpointConfig config_;
    std::vector<const CheckpointTensor*> tensors_;
    std::vector<DType> dtypes_;
    std::vector<std::optional<Placements>> placements_;
    Json transitions_;
};

}  // namespace

CheckpointScenario scenarioFromCheckpoint(const Checkpoint& checkpoint,
                                          const CheckpointScenarioRequest& request) {
    return Builder(checkpoint, request).build();
}

}  // namespace hsdp
