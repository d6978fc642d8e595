// SPDX-License-Identifier: Apache-2.0
#include "export/npy.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <stdexcept>

namespace hsdp {

std::string npyHeader(const std::vector<int64_t>& shape) {
    std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (";
    for (size_t i = 0; i < shape.size(); ++i)
        dict += std::to_string(shape[i]) +
                (shape.size() == 1 ? "," : (i + 1 < shape.size() ? ", " : ""));
    dict += "), }";
    // magic (6) + version (2) + header length (2) + dict + padding + '\n' = multiple of 64.
    size_t total = 10 + dict.size() + 1;
    dict.append((64 - total % 64) % 64, ' ');
    dict += '\n';
    return dict;
}

void writeNpyFloat32(const std::string& path, const std::vector<int64_t>& shape,
                     const float* data) {
    std::filesystem::path p(path);
    if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + path);
    const std::string header = npyHeader(shape);
    const uint16_t len = static_cast<uint16_t>(header.size());
    out.write("\x93NUMPY\x01\x00", 8);
    const char lenBytes[2] = {char(len & 0xFF), char(len >> 8)};
    out.write(lenBytes, 2);
    out.write(header.data(), std::streamsize(header.size()));
    int64_t n = 1;
    for (auto s : shape) n *= s;
    // The machine is little endian (x86-64/aarch64), so fp32 bytes go out as is.
    out.write(reinterpret_cast<const char*>(data), std::streamsize(n * 4));
    if (!out) throw std::runtime_error("cannot write " + path);
}

NpyArray readNpyFloat32(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    char magic[10];
    in.read(magic, 10);
    if (!in || std::memcmp(magic, "\x93NUMPY", 6) != 0 || magic[6] != 1)
        throw std::runtime_error(path + ": not an .npy v1 file");
    const size_t len = size_t(uint8_t(magic[8])) | (size_t(uint8_t(magic[9])) << 8);
    std::string header(len, '\0');
    in.read(header.data(), std::streamsize(len));
    NpyArray a;
    std::smatch m;
    if (std::regex_search(header, m, std::regex("'descr': '([^']*)'"))) a.descr = m[1];
    a.fortranOrder = header.find("'fortran_order': True") != std::string::npos;
    if (!std::regex_search(header, m, std::regex("'shape': \\(([^)]*)\\)")))
        throw std::runtime_error(path + ": no shape in the header");
    std::string dims = m[1];
    const std::regex number("[0-9]+");
    for (std::sregex_iterator it(dims.begin(), dims.end(), number), end; it != end; ++it)
        a.shape.push_back(std::stoll(it->str()));
    int64_t n = 1;
    for (auto s : a.shape) n *= s;
    a.data.resize(size_t(n));
    in.read(reinterpret_cast<char*>(a.data.data()), std::streamsize(n * 4));
    if (!in) throw std::runtime_error(path + ": truncated data");
    return a;
}

std::string npyFileName(const std::string& name) {
    std::string out;
    for (char c : name) out += (c == '/' || c == '\\' || c == ':' || c == '\0') ? '_' : c;
    if (out.empty() || out == "." || out == "..") out = "_" + out;
    return out;
}

}  // namespace hsdp
