// SPDX-License-Identifier: Apache-2.0
#include "tensor/tensor.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <stdexcept>

#include "types/scenario.h"

namespace hsdp {

Tensor::Tensor(std::vector<int64_t> s, float fill)
    : shape(std::move(s)), data(static_cast<size_t>(shapeNumel(shape)), fill) {}

std::vector<int64_t> stridesOf(const std::vector<int64_t>& shape) {
    std::vector<int64_t> strides(shape.size(), 1);
    for (int d = static_cast<int>(shape.size()) - 2; d >= 0; --d)
        strides[d] = strides[d + 1] * shape[d + 1];
    return strides;
}

std::vector<int64_t> iota(int64_t n) {
    std::vector<int64_t> v(static_cast<size_t>(std::max<int64_t>(n, 0)));
    std::iota(v.begin(), v.end(), int64_t{0});
    return v;
}

std::vector<int64_t> positionsIn(const IndexSet& have, const IndexSet& want) {
    std::vector<int64_t> out;
    out.reserve(static_cast<size_t>(indexCount(want)));
    for (const auto& w : want) {
        for (int64_t g = w.begin; g < w.end;) {
            // Find the range of `have` holding g; copy the whole overlap at once.
            int64_t local = 0;
            bool found = false;
            for (const auto& h : have) {
                if (g >= h.begin && g < h.end) {
                    int64_t run = std::min(w.end, h.end) - g;
                    for (int64_t i = 0; i < run; ++i) out.push_back(local + (g - h.begin) + i);
                    g += run;
                    found = true;
                    break;
                }
                local += h.size();
            }
            if (!found) throw std::out_of_range("index " + std::to_string(g) + " not held");
        }
    }
    return out;
}

Positions positionsIn(const std::vector<IndexSet>& have, const std::vector<IndexSet>& want) {
    Positions pos;
    for (size_t d = 0; d < want.size(); ++d) pos.push_back(positionsIn(have.at(d), want[d]));
    return pos;
}

namespace {

// Calls fn(srcOffsetOfRowStart, dstOffsetOfRowStart) for every row (all dims
// but the last) of the block described by `pos` inside a tensor of `shape`.
template <typename Fn>
void forEachRow(const std::vector<int64_t>& shape, const Positions& pos, Fn fn) {
    int nd = static_cast<int>(shape.size());
    if (nd == 0) {
        fn(0, 0);
        return;
    }
    for (const auto& p : pos)
        if (p.empty()) return;
    auto strides = stridesOf(shape);
    int64_t rowLen = static_cast<int64_t>(pos[nd - 1].size());
    std::vector<size_t> idx(static_cast<size_t>(nd - 1), 0);
    int64_t dstRow = 0;
    while (true) {
        int64_t off = 0;
        for (int d = 0; d < nd - 1; ++d) off += pos[d][idx[d]] * strides[d];
        fn(off, dstRow * rowLen);
        ++dstRow;
        int d = nd - 2;
        for (; d >= 0; --d) {
            if (++idx[d] < pos[d].size()) break;
            idx[d] = 0;
        }
        if (d < 0) return;
    }
}

bool contiguousRun(const std::vector<int64_t>& p) {
    for (size_t i = 1; i < p.size(); ++i)
        if (p[i] != p[0] + static_cast<int64_t>(i)) return false;
    return true;
}

std::vector<int64_t> blockShape(const Positions& pos) {
    std::vector<int64_t> s;
    for (const auto& p : pos) s.push_back(static_cast<int64_t>(p.size()));
    return s;
}

}  // namespace

Tensor extract(const Tensor& src, const Positions& pos) {
    if (pos.size() != src.shape.size()) throw std::invalid_argument("extract: rank mismatch");
    Tensor out(blockShape(pos));
    if (out.numel() == 0) return out;
    if (src.shape.empty()) {
        out.data[0] = src.data[0];
        return out;
    }
    const auto& last = pos.back();
    bool run = contiguousRun(last);
    forEachRow(src.shape, pos, [&](int64_t s, int64_t d) {
        if (run) {
            std::memcpy(&out.data[size_t(d)], &src.data[size_t(s + last[0])],
                        last.size() * sizeof(float));
        } else {
            for (size_t i = 0; i < last.size(); ++i)
                out.data[size_t(d) + i] = src.data[size_t(s + last[i])];
        }
    });
    return out;
}

void insert(Tensor& dst, const Positions& pos, const Tensor& block) {
    if (pos.size() != dst.shape.size() || blockShape(pos) != block.shape)
        throw std::invalid_argument("insert: block shape mismatch");
    if (block.numel() == 0) return;
    if (dst.shape.empty()) {
        dst.data[0] = block.data[0];
        return;
    }
    const auto& last = pos.back();
    bool run = contiguousRun(last);
    forEachRow(dst.shape, pos, [&](int64_t s, int64_t d) {
        if (run) {
            std::memcpy(&dst.data[size_t(s + last[0])], &block.data[size_t(d)],
                        last.size() * sizeof(float));
        } else {
            for (size_t i = 0; i < last.size(); ++i)
                dst.data[size_t(s + last[i])] = block.data[size_t(d) + i];
        }
    });
}

Tensor permute(const Tensor& t, const std::vector<int>& perm) {
    int nd = t.ndim();
    std::vector<int64_t> outShape(static_cast<size_t>(nd));
    for (int i = 0; i < nd; ++i) outShape[i] = t.shape[perm[i]];
    Tensor out(outShape);
    if (out.numel() == 0) return out;
    auto srcStrides = stridesOf(t.shape);
    std::vector<int64_t> permStrides(static_cast<size_t>(nd));
    for (int i = 0; i < nd; ++i) permStrides[i] = srcStrides[perm[i]];
    std::vector<int64_t> idx(static_cast<size_t>(nd), 0);
    int64_t src = 0;
    for (int64_t flat = 0; flat < out.numel(); ++flat) {
        out.data[size_t(flat)] = t.data[size_t(src)];
        for (int d = nd - 1; d >= 0; --d) {
            src += permStrides[d];
            if (++idx[d] < outShape[d]) break;
            src -= permStrides[d] * outShape[d];
            idx[d] = 0;
        }
    }
    return out;
}

Tensor movedimTo0(const Tensor& t, int d) {
    if (d == 0) return t;
    std::vector<int> perm{d};
    for (int i = 0; i < t.ndim(); ++i)
        if (i != d) perm.push_back(i);
    return permute(t, perm);
}

Tensor movedimFrom0(const Tensor& t, int d) {
    if (d == 0) return t;
    // Output dim d comes from input dim 0; the others keep their order.
    std::vector<int> perm;
    int next = 1;
    for (int i = 0; i < t.ndim(); ++i) perm.push_back(i == d ? 0 : next++);
    return permute(t, perm);
}

Tensor narrow(const Tensor& t, int dim, int64_t start, int64_t len) {
    if (start < 0 || len < 0 || start + len > t.shape.at(dim))
        throw std::out_of_range("narrow out of range");
    Positions pos;
    for (int d = 0; d < t.ndim(); ++d) {
        if (d == dim) {
            std::vector<int64_t> p(static_cast<size_t>(len));
            std::iota(p.begin(), p.end(), start);
            pos.push_back(std::move(p));
        } else {
            pos.push_back(iota(t.shape[d]));
        }
    }
    return extract(t, pos);
}

std::vector<int64_t> unflatIndex(const std::vector<int64_t>& shape, int64_t flat) {
    std::vector<int64_t> index(shape.size());
    for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
        index[d] = shape[d] ? flat % shape[d] : 0;
        flat = shape[d] ? flat / shape[d] : 0;
    }
    return index;
}

}  // namespace hsdp
