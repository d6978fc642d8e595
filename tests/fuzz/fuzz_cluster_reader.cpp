// SPDX-License-Identifier: Apache-2.0
// readCluster (cluster/reader.h) on any bytes: a Cluster or a ClusterError
// whose path is in the document. A cluster read is consistent (one node per
// rank, each node in range) and round-trips as writeCluster promises:
// writeCluster(readCluster(writeCluster(c))) == writeCluster(c).
#include "cluster/reader.h"
#include "cluster/writer.h"
#include "fuzz_support.h"
#include "scenario/json_text.h"
#include "scenario/scenario_error.h"

using namespace hsdp;
using fuzz::finding;

namespace {

void checkCluster(const Cluster& c) {
    if (c.nodes < 1 || c.devicesPerNode < 1) finding("a cluster without devices");
    if (static_cast<int64_t>(c.rankToNode.size()) != int64_t{c.nodes} * c.devicesPerNode)
        finding("rank_to_node does not have one node per rank");
    for (int node : c.rankToNode)
        if (node < 0 || node >= c.nodes) finding("a rank on node " + std::to_string(node));
}

void checkRoundTrip(const Cluster& cluster) {
    const std::string written = writeCluster(cluster);
    Cluster again;
    fuzz::returnsOrRefuses<ClusterError>(
        "readCluster of writeCluster", [&] { again = readCluster(written); },
        [&](const ClusterError& e) {
            finding("writeCluster wrote what readCluster refuses: " + std::string(e.what()) + "\n" +
                    written);
        });
    if (writeCluster(again) != written)
        finding("writeCluster does not read back to itself:\n" + written + "\n" +
                writeCluster(again));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text = fuzz::textOf(data, size);
    Cluster cluster;
    const bool read = fuzz::returnsOrRefuses<ClusterError>(
        "readCluster", [&] { cluster = readCluster(text); },
        [&](const ClusterError& e) {
            fuzz::checkMessage("readCluster", e);
            // A path into the document, when it parses (a duplicate key's is
            // not in the document the parser refused).
            Json document;
            try {
                document = parseStrictJson(text);
            } catch (const ScenarioError&) {
                return;
            }
            fuzz::checkPointsInto("readCluster", document, e.path, e.what());
        });
    if (!read) return 0;
    checkCluster(cluster);
    checkRoundTrip(cluster);
    return 0;
}
