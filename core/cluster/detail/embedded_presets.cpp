// SPDX-License-Identifier: Apache-2.0
#include "cluster/detail/embedded_presets.h"

namespace hsdp {

namespace {

// Generated at build time from resources/clusters/*.json: one
// {"name", R"(text)"} initializer per file.
constexpr EmbeddedClusterPreset kPresets[] = {
#include "cluster_presets_embedded.inc"
};

}  // namespace

std::span<const EmbeddedClusterPreset> embeddedClusterPresets() {
    return kPresets;
}

}  // namespace hsdp
