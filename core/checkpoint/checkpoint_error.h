// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <stdexcept>
#include <string>

namespace hsdp {

// A checkpoint that cannot be read or turned into a scenario. The message
// names the file and, where one is to blame, the tensor:
// `model-00002-of-00004.safetensors: tensor model.layers.7.mlp.up_proj.weight:
// data_offsets [0, 10) hold 10 bytes, but [14336, 4096] BF16 needs 117440512`.
class CheckpointError : public std::runtime_error {
public:
    CheckpointError(std::string file, std::string tensor, const std::string& problem)
        : std::runtime_error(compose(file, tensor, problem)),
          file(std::move(file)),
          tensor(std::move(tensor)) {}

    std::string file;    // "" when no file is to blame (e.g. --mesh)
    std::string tensor;  // "" when no tensor is

private:
    static std::string compose(const std::string& file, const std::string& tensor,
                               const std::string& problem) {
        std::string text;
        if (!file.empty()) text += file + ": ";
        if (!tensor.empty()) text += "tensor " + tensor + ": ";
        return text + problem;
    }
};

}  // namespace hsdp
