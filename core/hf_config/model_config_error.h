// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <stdexcept>
#include <string>

namespace hsdp {

// A config or layout the scenario cannot be built from. The message names the
// source (the config file, or `--mesh`), the field and the rule it breaks:
// `config.json: num_attention_heads: 40 does not divide hidden_size 5122`.
class ModelConfigError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace hsdp
