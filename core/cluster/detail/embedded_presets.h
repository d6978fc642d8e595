// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <span>
#include <string_view>

namespace hsdp {

// One file of resources/clusters/, compiled in by the build
// (core/cluster/embed_presets.cmake): its name without ".json" and its text.
struct EmbeddedClusterPreset {
    std::string_view name;
    std::string_view text;
};

// In file-name order.
std::span<const EmbeddedClusterPreset> embeddedClusterPresets();

}  // namespace hsdp
