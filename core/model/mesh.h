#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hsdp {

using Coord = std::vector<int64_t>;

// A named N-D device mesh: shape, dim names, and the global ranks laid out
// row-major over the shape.
struct Mesh {
    std::string name;
    std::vector<int64_t> shape;
    std::vector<std::string> dimNames;
    std::vector<int> ranks;

    int ndim() const { return static_cast<int>(shape.size()); }
    int64_t size() const;  // product of shape
    int64_t dimSize(int dim) const { return shape.at(dim); }
    std::optional<int> dimIndex(const std::string& dimName) const;

    // Row-major position of `rank` in `ranks`; nullopt for a rank outside the mesh.
    std::optional<Coord> coordinateOf(int rank) const;
    int rankAt(const Coord& coord) const;
    bool contains(int rank) const { return coordinateOf(rank).has_value(); }

    // Ranks along `dim` through `coord` (the other coordinates fixed), in mesh order.
    std::vector<int> groupAlong(int dim, const Coord& coord) const;
    // Every group along `dim`, ordered by the coordinates of the other dims.
    std::vector<std::vector<int>> groupsAlong(int dim) const;
    // Ranks varying over all of `dims` through `coord`, row-major over those dims.
    std::vector<int> groupOver(const std::vector<int>& dims, const Coord& coord) const;

    // Builds the rank -> position index that makes coordinateOf O(1). The
    // reader calls it; a hand-built mesh works without it (linear search).
    void buildIndex();

private:
    std::vector<int64_t> positionOfRank_;  // -1: not in the mesh
};

// Every tuple over `sizes`, lexicographic. One empty tuple for no sizes.
std::vector<Coord> allCoordinates(const std::vector<int64_t>& sizes);

}  // namespace hsdp
