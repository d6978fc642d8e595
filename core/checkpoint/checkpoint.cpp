// SPDX-License-Identifier: Apache-2.0
#include "checkpoint/checkpoint.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "checkpoint/checkpoint_error.h"
#include "checkpoint/detail/checkpoint_location.h"
#include "checkpoint/detail/dcp_sharding_info.h"
#include "checkpoint/detail/natural_order.h"
#include "checkpoint/detail/piece_coverage.h"
#include "checkpoint/detail/shard_index.h"

namespace hsdp {

namespace {

int64_t product(const std::vector<int64_t>& dims) {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    return n;
}

// Collects the tensors of every file, one entry per name with its pieces.
class TensorTable {
public:
    explicit TensorTable(Checkpoint& checkpoint) : c_(checkpoint) {}

    void add(const SafetensorsHeader& header, int file,
             const std::optional<std::map<std::string, std::vector<int64_t>>>& dcp) {
        for (const SafetensorsTensor& t : header.tensors) {
            TensorPiece piece{file, c_.files[size_t(file)].rank,
                              dcp ? dcp->at(t.name) : std::vector<int64_t>(t.shape.size(), 0),
                              t.shape};
            auto [it, fresh] = index_.emplace(t.name, c_.tensors.size());
            if (fresh) {
                c_.tensors.push_back({t.name, t.dtype, {}, {std::move(piece)}, false});
                continue;
            }
            CheckpointTensor& known = c_.tensors[it->second];
            checkSecondPiece(known, t, file, dcp.has_value());
            known.pieces.push_back(std::move(piece));
        }
    }

    // Full shapes from the pieces: the largest offset + size per dim.
    void finish() {
        for (CheckpointTensor& t : c_.tensors) {
            t.shape.assign(t.pieces.front().sizes.size(), 0);
            for (const TensorPiece& p : t.pieces)
                for (size_t d = 0; d < t.shape.size(); ++d)
                    t.shape[d] = std::max(t.shape[d], p.offsets[d] + p.sizes[d]);
        }
        std::sort(c_.tensors.begin(), c_.tensors.end(),
                  [](const auto& a, const auto& b) { return naturalLess(a.name, b.name); });
    }

private:
    void checkSecondPiece(const CheckpointTensor& known, const SafetensorsTensor& t, int file,
                          bool dcp) const {
        const CheckpointFile& first = c_.files[size_t(known.pieces.front().file)];
        const std::string& here = c_.files[size_t(file)].path;
        if (!dcp || !first.dcpShardingInfo)
            throw CheckpointError(here, t.name,
                                  "is also in " + first.path +
                                      " (a tensor in several files needs DCP_SHARDING_INFO to say "
                                      "where each piece sits)");
        if (t.dtype != known.dtype)
            throw CheckpointError(here, t.name,
                                  "is " + std::string(t.dtype->name) + " here but " +
                                      std::string(known.dtype->name) + " in " + first.path);
        if (t.shape.size() != known.pieces.front().sizes.size())
            throw CheckpointError(here, t.name,
                                  "has " + std::to_string(t.shape.size()) + " dims here but " +
                                      std::to_string(known.pieces.front().sizes.size()) + " in " +
                                      first.path);
    }

    Checkpoint& c_;
    std::unordered_map<std::string, size_t> index_;
};

// The index and the files must list the same tensors in the same places.
void crossCheckIndex(const Checkpoint& c, const ShardIndex& index) {
    std::map<std::string, const CheckpointTensor*> byName;
    for (const CheckpointTensor& t : c.tensors) byName.emplace(t.name, &t);
    for (const auto& [tensor, file] : index.weightMap) {
        auto it = byName.find(tensor);
        if (it == byName.end())
            throw CheckpointError(c.indexPath, tensor,
                                  "the index puts it in " + file + ", which does not hold it");
        const std::string& holder = c.files[size_t(it->second->pieces.front().file)].path;
        const bool same = holder == file || (holder.size() > file.size() &&
                                             holder.compare(holder.size() - file.size() - 1,
                                                            file.size() + 1, "/" + file) == 0);
        if (!same)
            throw CheckpointError(c.indexPath, tensor,
                                  "the index puts it in " + file + ", but " + holder + " holds it");
    }
    for (const CheckpointTensor& t : c.tensors)
        if (!index.weightMap.count(t.name))
            throw CheckpointError(c.files[size_t(t.pieces.front().file)].path, t.name,
                                  "is not in the index's weight_map (" + c.indexPath + ")");
}

// The ranks that wrote: the shard files' highest rank + 1; without shard
// names, every file carrying sharding info is a rank of its own, in name order.
void assignWriters(Checkpoint& c) {
    int64_t highest = -1;
    for (const CheckpointFile& f : c.files) highest = std::max(highest, f.rank);
    if (highest >= 0) {
        c.writers = highest + 1;
        return;
    }
    for (CheckpointFile& f : c.files)
        if (f.dcpShardingInfo) f.rank = c.writers++;
    for (CheckpointTensor& t : c.tensors)
        for (TensorPiece& p : t.pieces) p.rank = c.files[size_t(p.file)].rank;
    if (c.writers > 1)
        c.notes.push_back(
            "the files' names do not say which rank wrote each (shard-<rank+1>-"
            "model-…); each is taken as one rank, in name order");
}

void findSavedSharding(Checkpoint& c) {
    const bool anyInfo = std::any_of(c.files.begin(), c.files.end(),
                                     [](const CheckpointFile& f) { return f.dcpShardingInfo; });
    if (!anyInfo) return;
    assignWriters(c);
    bool split = false;
    for (CheckpointTensor& t : c.tensors) {
        checkPieceCoverage(t, c.files);
        std::set<std::vector<int64_t>> starts;
        for (const TensorPiece& p : t.pieces)
            if (p.numel() > 0) starts.insert(p.offsets);
        split = split || starts.size() > 1;
    }
    c.savedSharding = c.writers > 1 || split;
}

}  // namespace

int64_t TensorPiece::numel() const {
    return product(sizes);
}

int64_t CheckpointTensor::numel() const {
    return product(shape);
}

uint64_t CheckpointTensor::bytes() const {
    return uint64_t(numel()) * unsigned(dtype->bits) / 8;
}

int64_t Checkpoint::numel() const {
    int64_t n = 0;
    for (const CheckpointTensor& t : tensors) n += t.numel();
    return n;
}

uint64_t Checkpoint::tensorBytes() const {
    uint64_t n = 0;
    for (const CheckpointTensor& t : tensors) n += t.bytes();
    return n;
}

uint64_t Checkpoint::headerBytes() const {
    uint64_t n = 0;
    for (const CheckpointFile& f : files) n += f.headerBytes;
    return n;
}

Checkpoint readCheckpoint(const std::string& path, CheckpointFileReader& reader) {
    const CheckpointLocation location = locateCheckpoint(path);
    Checkpoint c;
    c.source = path;
    c.indexPath = location.indexPath;
    c.configPath = location.configPath;
    TensorTable table(c);
    for (const std::string& file : location.files) {
        const SafetensorsHeader header = readSafetensorsFile(file, file, reader);
        const auto dcp = readDcpShardingInfo(header, file);
        c.files.push_back({file, header.dataBytes + header.jsonBytes + 8, header.jsonBytes + 8,
                           rankOfShardFile(file), dcp.has_value(), header.tensors.size()});
        table.add(header, int(c.files.size() - 1), dcp);
    }
    table.finish();
    if (c.tensors.empty()) throw CheckpointError(path, "", "holds no tensor");
    if (!c.indexPath.empty()) {
        const ShardIndex index = readShardIndex(c.indexPath);
        crossCheckIndex(c, index);
        c.indexTotalSize = index.totalSize;
        if (index.totalSize && *index.totalSize != c.tensorBytes())
            c.notes.push_back("the index's total_size is " + std::to_string(*index.totalSize) +
                              " bytes, the tensors hold " + std::to_string(c.tensorBytes()));
    }
    findSavedSharding(c);
    if (!location.shardedFolder.empty())
        c.notes.push_back(location.shardedFolder +
                          " holds the ranks' own pieces: read it to describe the job that wrote "
                          "them (their saved sharding)");
    return c;
}

Checkpoint readCheckpoint(const std::string& path) {
    DiskFileReader reader;
    return readCheckpoint(path, reader);
}

}  // namespace hsdp
