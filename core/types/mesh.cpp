// SPDX-License-Identifier: Apache-2.0
#include "types/mesh.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace hsdp {

namespace {

std::vector<std::string> namesOrDefault(std::vector<std::string> names, size_t ndim) {
    if (names.empty())
        for (size_t d = 0; d < ndim; ++d) names.push_back("dim" + std::to_string(d));
    return names;
}

std::vector<int> rowMajorRanks(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (auto s : shape) n *= s;
    std::vector<int> ranks(static_cast<size_t>(std::max<int64_t>(n, 0)));
    std::iota(ranks.begin(), ranks.end(), 0);
    return ranks;
}

// Position of each rank in `ranks`, indexed by rank (-1: not in the mesh).
std::vector<int> positionIndex(const std::vector<int>& ranks, const std::string& what) {
    int maxRank = -1;
    for (int r : ranks) {
        if (r < 0) throw std::invalid_argument(what + "negative rank " + std::to_string(r));
        maxRank = std::max(maxRank, r);
    }
    std::vector<int> positionOf(static_cast<size_t>(maxRank + 1), -1);
    for (size_t pos = 0; pos < ranks.size(); ++pos) {
        int& slot = positionOf[static_cast<size_t>(ranks[pos])];
        if (slot >= 0)
            throw std::invalid_argument(what + "rank " + std::to_string(ranks[pos]) +
                                        " appears twice");
        slot = static_cast<int>(pos);
    }
    return positionOf;
}

}  // namespace

Mesh::Mesh(std::string name, std::vector<int64_t> shape, std::vector<std::string> dimNames,
           std::vector<int> ranks)
    : name(std::move(name)),
      dimNames(namesOrDefault(std::move(dimNames), shape.size())),
      shape(std::move(shape)),
      ranks(std::move(ranks)) {
    const std::string what = "mesh '" + this->name + "': ";
    for (auto s : this->shape)
        if (s < 1) throw std::invalid_argument(what + "a mesh dim size below 1");
    if (this->dimNames.size() != this->shape.size())
        throw std::invalid_argument(what + "expected one dim name per mesh dim");
    if (static_cast<int64_t>(this->ranks.size()) != size())
        throw std::invalid_argument(what + "expected one rank per mesh position");
    positionOfRank_ = positionIndex(this->ranks, what);
}

Mesh::Mesh(std::string name, std::vector<int64_t> shape, std::vector<std::string> dimNames)
    : Mesh(std::move(name), shape, std::move(dimNames), rowMajorRanks(shape)) {}

int64_t Mesh::size() const {
    int64_t n = 1;
    for (auto s : shape) n *= s;
    return n;
}

std::optional<int> Mesh::dimIndex(const std::string& dimName) const {
    for (size_t i = 0; i < dimNames.size(); ++i)
        if (dimNames[i] == dimName) return static_cast<int>(i);
    return std::nullopt;
}

int Mesh::positionOf(int rank) const {
    if (rank < 0 || static_cast<size_t>(rank) >= positionOfRank_.size()) return -1;
    return positionOfRank_[static_cast<size_t>(rank)];
}

std::optional<Coord> Mesh::coordinateOf(int rank) const {
    int64_t pos = positionOf(rank);
    if (pos < 0) return std::nullopt;
    Coord coord(shape.size());
    for (int d = ndim() - 1; d >= 0; --d) {
        coord[d] = pos % shape[d];
        pos /= shape[d];
    }
    return coord;
}

int Mesh::rankAt(const Coord& coord) const {
    if (static_cast<int>(coord.size()) != ndim())
        throw std::invalid_argument("coordinate rank mismatch");
    int64_t pos = 0;
    for (int d = 0; d < ndim(); ++d) pos = pos * shape[d] + coord[d];
    return ranks.at(static_cast<size_t>(pos));
}

std::vector<int> Mesh::groupAlong(int dim, const Coord& coord) const {
    return groupOver({dim}, coord);
}

std::vector<int> Mesh::groupOver(const std::vector<int>& dims, const Coord& coord) const {
    std::vector<int64_t> sizes;
    for (int d : dims) sizes.push_back(shape.at(d));
    std::vector<int> out;
    Coord c = coord;
    for (const auto& sub : allCoordinates(sizes)) {
        for (size_t i = 0; i < dims.size(); ++i) c[dims[i]] = sub[i];
        out.push_back(rankAt(c));
    }
    return out;
}

std::vector<std::vector<int>> Mesh::groupsAlong(int dim) const {
    std::vector<int64_t> otherSizes = shape;
    otherSizes[dim] = 1;
    std::vector<std::vector<int>> groups;
    for (const auto& coord : allCoordinates(otherSizes)) groups.push_back(groupAlong(dim, coord));
    return groups;
}

std::vector<Coord> allCoordinates(const std::vector<int64_t>& sizes) {
    std::vector<Coord> out;
    int64_t total = 1;
    for (auto s : sizes) total *= s;
    out.reserve(static_cast<size_t>(total));
    Coord c(sizes.size(), 0);
    for (int64_t n = 0; n < total; ++n) {
        out.push_back(c);
        for (int d = static_cast<int>(sizes.size()) - 1; d >= 0; --d) {
            if (++c[d] < sizes[d]) break;
            c[d] = 0;
        }
    }
    return out;
}

int64_t indexOver(const std::vector<int>& dims, const std::vector<int64_t>& shape,
                  const Coord& coord) {
    int64_t index = 0;
    for (int d : dims) index = index * shape[size_t(d)] + coord[size_t(d)];
    return index;
}

int64_t sizeOver(const std::vector<int>& dims, const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (int d : dims) n *= shape[size_t(d)];
    return n;
}

}  // namespace hsdp
