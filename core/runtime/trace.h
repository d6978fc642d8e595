#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace hsdp {

// One parameter's place inside a fused buffer (per rank slot), in bytes.
struct BufferSegment {
    int param = -1;
    int64_t offset = 0;   // bytes from the start of one rank's packed slot
    int64_t length = 0;   // real payload bytes
    int64_t padding = 0;  // alignment bytes after the payload
};

// What the algorithm says about a collective before it runs: the trace and
// error messages carry it.
struct CollectiveLabel {
    std::string phase;  // gather | update-broadcast | replica-broadcast | tp | ...
    int step = -1;      // position in the plan's schedule
    int group = -1;     // plan group id
    int batch = -1;     // batch index inside the group
    int tpTransition = -1;
    std::string mesh;
    int meshDim = -1;
    std::vector<int> params;
    std::vector<BufferSegment> segments;
};

// One collective as one rank saw it.
struct TraceEvent {
    int64_t seq = 0;  // global id, identical on every participant of the collective
    int rank = 0;
    std::string op;   // all_gather | broadcast | all_reduce | reduce_scatter | all_to_all | ...
    std::vector<int> groupRanks;
    int64_t bytes = 0;  // payload bytes this rank sent
    double startUs = 0;  // microseconds since the run started
    double endUs = 0;
    CollectiveLabel label;
};

struct Trace {
    std::vector<TraceEvent> events;  // ordered by (rank, start)
};

// Thread-safe collector shared by all rank threads of one run.
class TraceRecorder {
public:
    // The global id of the `groupSeq`-th collective on the process group named
    // `groupKey`: the first participant to ask assigns it, the others get the same.
    int64_t globalSeq(const std::string& groupKey, int64_t groupSeq);
    void record(TraceEvent event);
    Trace take();  // events sorted by (rank, start)

private:
    std::mutex mutex_;
    std::map<std::pair<std::string, int64_t>, int64_t> seqs_;
    int64_t nextSeq_ = 0;
    std::vector<TraceEvent> events_;
};

}  // namespace hsdp
