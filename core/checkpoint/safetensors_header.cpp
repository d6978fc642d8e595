// SPDX-License-Identifier: Apache-2.0
#include "checkpoint/safetensors_header.h"

#include <algorithm>
#include <limits>

#include "checkpoint/checkpoint_error.h"
#include "checkpoint/detail/header_json.h"

namespace hsdp {

namespace {

std::string rangeText(uint64_t begin, uint64_t end) {
    return "[" + std::to_string(begin) + ", " + std::to_string(end) + ")";
}

std::string shapeText(const std::vector<int64_t>& shape) {
    std::string text = "[";
    for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + "]";
}

class TensorChecker {
public:
    TensorChecker(const std::string& file, uint64_t dataBytes) : file_(file), data_(dataBytes) {}

    SafetensorsTensor check(RawHeaderEntry&& raw) const {
        SafetensorsTensor t;
        t.name = std::move(raw.name);
        t.dtype = findSafetensorsDType(*raw.dtype);
        if (!t.dtype)
            fail(t, "unknown dtype \"" + *raw.dtype +
                        "\" (the format's: " + safetensorsDTypeNames() + ")");
        t.shape = checkedShape(t, *raw.shape);
        const std::vector<uint64_t>& offsets = *raw.dataOffsets;
        if (offsets.size() != 2)
            fail(t, "data_offsets: expected [begin, end], got " + std::to_string(offsets.size()) +
                        " numbers");
        t.dataBegin = offsets[0];
        t.dataEnd = offsets[1];
        if (t.dataBegin > t.dataEnd)
            fail(t, "data_offsets: begin " + std::to_string(t.dataBegin) + " is after end " +
                        std::to_string(t.dataEnd));
        if (t.dataEnd > data_)
            fail(t, "data_offsets " + rangeText(t.dataBegin, t.dataEnd) +
                        " end past the data section's " + std::to_string(data_) +
                        " bytes (the file is shorter than its header says)");
        const uint64_t expected = byteCount(t);
        if (t.dataEnd - t.dataBegin != expected)
            fail(t, "data_offsets " + rangeText(t.dataBegin, t.dataEnd) + " hold " +
                        std::to_string(t.dataEnd - t.dataBegin) + " bytes, but " +
                        shapeText(t.shape) + " " + std::string(t.dtype->name) + " needs " +
                        std::to_string(expected));
        return t;
    }

    [[noreturn]] void fail(const SafetensorsTensor& t, const std::string& problem) const {
        throw CheckpointError(file_, t.name, problem);
    }

private:
    std::vector<int64_t> checkedShape(const SafetensorsTensor& t,
                                      const std::vector<uint64_t>& dims) const {
        std::vector<int64_t> shape;
        uint64_t numel = 1;
        for (uint64_t d : dims) {
            if (d > uint64_t(std::numeric_limits<int64_t>::max()) ||
                (d != 0 && numel > uint64_t(std::numeric_limits<int64_t>::max()) / d))
                fail(t, "shape: the element count overflows 64 bits");
            numel *= d;
            shape.push_back(int64_t(d));
        }
        return shape;
    }

    uint64_t byteCount(const SafetensorsTensor& t) const {
        const auto bits = static_cast<unsigned __int128>(t.numel()) * unsigned(t.dtype->bits);
        if (bits % 8 != 0)
            fail(t, shapeText(t.shape) + " " + std::string(t.dtype->name) + " is " +
                        std::to_string(uint64_t(bits)) + " bits, not whole bytes");
        return uint64_t(bits / 8);  // numel < 2^63, bits <= 64: fits after dividing by 8
    }

    const std::string& file_;
    uint64_t data_;
};

// Sorted by their ranges, the tensors must tile the data section: each
// starts where the one before ends (no overlap, no hole) and the last ends
// with the file. Sorting keeps this O(n log n) for headers of any size.
void checkTiling(std::vector<SafetensorsTensor>& tensors, const TensorChecker& checker,
                 uint64_t dataBytes, const std::string& file) {
    std::vector<const SafetensorsTensor*> order;
    order.reserve(tensors.size());
    for (const auto& t : tensors) order.push_back(&t);
    std::sort(order.begin(), order.end(), [](const auto* a, const auto* b) {
        return std::pair(a->dataBegin, a->dataEnd) < std::pair(b->dataBegin, b->dataEnd);
    });
    uint64_t covered = 0;
    const SafetensorsTensor* previous = nullptr;
    for (const SafetensorsTensor* t : order) {
        if (t->dataBegin < covered)
            checker.fail(*t, "data_offsets " + rangeText(t->dataBegin, t->dataEnd) +
                                 " overlap tensor " + previous->name + "'s " +
                                 rangeText(previous->dataBegin, previous->dataEnd));
        if (t->dataBegin > covered)
            checker.fail(*t, "bytes " + rangeText(covered, t->dataBegin) +
                                 " of the data section before it belong to no tensor (the "
                                 "format allows no holes)");
        covered = t->dataEnd;
        previous = t;
    }
    if (covered != dataBytes)
        throw CheckpointError(file, previous ? previous->name : std::string(),
                              "the data section's last " + std::to_string(dataBytes - covered) +
                                  " bytes" + (previous ? " after this tensor" : "") +
                                  " belong to no tensor (the format allows no trailing bytes)");
}

}  // namespace

int64_t SafetensorsTensor::numel() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

const std::string* SafetensorsHeader::metadataValue(std::string_view key) const {
    for (const auto& [k, v] : metadata)
        if (k == key) return &v;
    return nullptr;
}

uint64_t safetensorsHeaderLength(std::string_view first8, const std::string& fileName,
                                 uint64_t fileSize) {
    if (first8.size() < 8 || fileSize < 8)
        throw CheckpointError(fileName, "",
                              "it is " +
                                  std::to_string(std::min<uint64_t>(fileSize, first8.size())) +
                                  " bytes, shorter than the 8-byte header length");
    uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(first8[size_t(i)]);
    if (n > kMaxSafetensorsHeaderBytes)
        throw CheckpointError(fileName, "",
                              "header length " + std::to_string(n) +
                                  " bytes is more than the 100 MiB a safetensors header may have");
    if (n > fileSize - 8)
        throw CheckpointError(fileName, "",
                              "header length " + std::to_string(n) +
                                  " bytes goes past the file's end (" + std::to_string(fileSize) +
                                  " bytes)");
    return n;
}

SafetensorsHeader readSafetensorsHeader(std::string_view bytes, const std::string& fileName,
                                        uint64_t fileSize) {
    SafetensorsHeader header;
    header.jsonBytes = safetensorsHeaderLength(bytes.substr(0, 8), fileName, fileSize);
    if (bytes.size() < 8 + header.jsonBytes)
        throw CheckpointError(fileName, "",
                              "the header is cut short: " + std::to_string(bytes.size() - 8) +
                                  " of its " + std::to_string(header.jsonBytes) + " bytes");
    header.dataBytes = fileSize - 8 - header.jsonBytes;
    RawHeader raw;
    try {
        raw = parseHeaderJson(bytes.substr(8, header.jsonBytes));
    } catch (const HeaderJsonProblem& problem) {
        throw CheckpointError(fileName, problem.tensor, problem.problem);
    }
    const TensorChecker checker(fileName, header.dataBytes);
    header.tensors.reserve(raw.tensors.size());
    for (RawHeaderEntry& entry : raw.tensors)
        header.tensors.push_back(checker.check(std::move(entry)));
    checkTiling(header.tensors, checker, header.dataBytes, fileName);
    header.hasMetadata = raw.hasMetadata;
    header.metadata = std::move(raw.metadata);
    return header;
}

}  // namespace hsdp
