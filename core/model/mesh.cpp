#include "model/mesh.h"

#include <stdexcept>

namespace hsdp {

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

void Mesh::buildIndex() {
    positionOfRank_.clear();
    for (size_t pos = 0; pos < ranks.size(); ++pos) {
        auto r = static_cast<size_t>(ranks[pos]);
        if (r >= positionOfRank_.size()) positionOfRank_.resize(r + 1, -1);
        positionOfRank_[r] = static_cast<int64_t>(pos);
    }
}

std::optional<Coord> Mesh::coordinateOf(int rank) const {
    int64_t pos = -1;
    if (!positionOfRank_.empty()) {
        if (rank >= 0 && static_cast<size_t>(rank) < positionOfRank_.size())
            pos = positionOfRank_[static_cast<size_t>(rank)];
    } else {
        for (size_t i = 0; i < ranks.size() && pos < 0; ++i)
            if (ranks[i] == rank) pos = static_cast<int64_t>(i);
    }
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

}  // namespace hsdp
