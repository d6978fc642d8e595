// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hsdp {

using Coord = std::vector<int64_t>;

// A named N-D device mesh: shape, dim names, and the global ranks laid out
// row-major over the shape. Shape and ranks are fixed when the mesh is made,
// and the constructor builds the rank -> position index from them, so every
// mesh answers coordinateOf in O(1); there is no mesh without its index.
// (They are const members rather than accessors so code that reads
// `mesh.shape` / `mesh.ranks` keeps reading them; a mesh is copied, never
// assigned.)
class Mesh {
public:
    // `ranks`: one distinct non-negative rank per position, row-major.
    // `dimNames`: one per dim, or none for "dim0", "dim1", ... Throws
    // std::invalid_argument otherwise.
    Mesh(std::string name, std::vector<int64_t> shape, std::vector<std::string> dimNames,
         std::vector<int> ranks);
    // Ranks 0 .. size-1 in row-major order.
    Mesh(std::string name, std::vector<int64_t> shape, std::vector<std::string> dimNames = {});

    std::string name;
    std::vector<std::string> dimNames;
    const std::vector<int64_t> shape;
    const std::vector<int> ranks;

    int ndim() const { return static_cast<int>(shape.size()); }
    int64_t size() const;  // product of shape
    int64_t dimSize(int dim) const { return shape.at(dim); }
    std::optional<int> dimIndex(const std::string& dimName) const;

    // Row-major position of `rank` in `ranks`; nullopt for a rank outside the mesh.
    std::optional<Coord> coordinateOf(int rank) const;
    int rankAt(const Coord& coord) const;
    bool contains(int rank) const { return positionOf(rank) >= 0; }

    // Ranks along `dim` through `coord` (the other coordinates fixed), in mesh order.
    std::vector<int> groupAlong(int dim, const Coord& coord) const;
    // Every group along `dim`, ordered by the coordinates of the other dims.
    std::vector<std::vector<int>> groupsAlong(int dim) const;
    // Ranks varying over all of `dims` through `coord`, row-major over those dims.
    std::vector<int> groupOver(const std::vector<int>& dims, const Coord& coord) const;

private:
    int positionOf(int rank) const;  // -1: not in the mesh

    std::vector<int> positionOfRank_;  // indexed by rank; -1: not in the mesh
};

// Every tuple over `sizes`, lexicographic. One empty tuple for no sizes.
std::vector<Coord> allCoordinates(const std::vector<int64_t>& sizes);

// Row-major index of `coord` restricted to `dims` of a mesh of `shape`, and
// how many such indices there are.
int64_t indexOver(const std::vector<int>& dims, const std::vector<int64_t>& shape,
                  const Coord& coord);
int64_t sizeOver(const std::vector<int>& dims, const std::vector<int64_t>& shape);

}  // namespace hsdp
