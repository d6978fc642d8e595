// SPDX-License-Identifier: Apache-2.0
#include "runtime/wire_bytes.h"

namespace hsdp::wire_bytes {

int64_t allGather(int64_t bytesPerRank, int size) {
    return size <= 1 ? 0 : bytesPerRank * (size - 1);
}

int64_t allGatherV(const std::vector<size_t>& bytesPerRank, int groupRank) {
    const int size = static_cast<int>(bytesPerRank.size());
    if (size <= 1) return 0;
    // Gloo's allgatherv is a ring: a rank forwards every block but the one of
    // its right neighbour, which is where the ring ends for that block.
    int64_t total = 0;
    for (size_t bytes : bytesPerRank) total += static_cast<int64_t>(bytes);
    return total - static_cast<int64_t>(bytesPerRank[(groupRank + 1) % size]);
}

int64_t broadcast(int64_t bytes, int size, int groupRank, int root) {
    // Gloo's broadcast is a binomial tree over virtual ranks (root = 0): in
    // round i, a participating rank with bit i clear sends to vrank ^ (1 << i).
    const int vrank = (groupRank - root + size) % size;
    int dim = 0;
    while ((1 << dim) < size) ++dim;
    int sends = 0;
    int mask = (1 << dim) - 1;
    for (int i = 0; i < dim; ++i) {
        mask ^= (1 << i);
        if ((vrank & mask) != 0) continue;
        const int vpeer = vrank ^ (1 << i);
        if (vpeer < size && (vrank & (1 << i)) == 0) ++sends;
    }
    return bytes * sends;
}

int64_t allReduce(int64_t bytes, int size) {
    return size <= 1 ? 0 : 2 * (size - 1) * bytes / size;
}

int64_t allToAll(int64_t bytesPerRank, int size) {
    return size <= 1 ? 0 : bytesPerRank * (size - 1);
}

int64_t allToAllV(const std::vector<size_t>& sendBytes, int groupRank) {
    int64_t bytes = 0;
    for (size_t i = 0; i < sendBytes.size(); ++i)
        if (int(i) != groupRank) bytes += int64_t(sendBytes[i]);
    return bytes;
}

}  // namespace hsdp::wire_bytes
