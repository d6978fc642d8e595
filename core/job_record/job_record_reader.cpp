// SPDX-License-Identifier: Apache-2.0
#include "job_record/job_record_reader.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>

#include "job_record/flight_recorder_reader.h"
#include "job_record/kineto_reader.h"
#include "job_record/pickle_reader.h"
#include "job_record/trace_as_dump.h"
#include "scenario/input_file.h"

namespace hsdp {

namespace {

namespace fs = std::filesystem;

constexpr int64_t kMaxRank = int64_t(1) << 24;

// A folder's files, sorted so that errors come in a stable order.
std::vector<std::string> filesOf(const std::string& folder) {
    std::vector<std::string> files;
    std::error_code error;
    for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
        const std::string name = it->path().filename().string();
        if (!name.starts_with(".") && it->is_regular_file()) files.push_back(it->path().string());
    }
    if (error) throw JobRecordError("", "cannot list the folder: " + error.message(), folder);
    std::sort(files.begin(), files.end());
    return files;
}

int64_t requireRank(std::optional<int64_t> rank, const std::string& file, const std::string& how) {
    if (!rank) throw JobRecordError("", "cannot tell its rank: " + how, file);
    return *rank;
}

template <class Value>
void addOnce(std::map<int64_t, Value>& values, std::map<int64_t, std::string>& files, int64_t rank,
             Value value, const std::string& file, const char* kind) {
    if (const auto found = files.find(rank); found != files.end())
        throw JobRecordError("",
                             std::string("a second ") + kind + " of rank " + std::to_string(rank) +
                                 " (the first is " + found->second + ")",
                             file);
    values.emplace(rank, std::move(value));
    files.emplace(rank, file);
}

void readOne(const std::string& file, JobRecord& job) {
    std::string bytes;
    try {
        bytes = readInputFile(file, kMaxJobRecordFileBytes);
    } catch (const InputFileError& error) {
        throw JobRecordError("", "cannot read the job record file: " + error.reason, file);
    }
    const std::string name = fs::path(file).filename().string();
    try {
        if (!looksLikePickle(bytes) && looksLikeKinetoTrace(bytes)) {
            KinetoTrace trace = readKinetoTrace(bytes);
            const int64_t rank =
                requireRank(trace.rank ? trace.rank : rankFromFileName(name), file,
                            "the trace has no distributedInfo.rank and its name ends in no number");
            addOnce(job.traces, job.traceFiles, rank, std::move(trace), file, "Kineto trace");
            return;
        }
        FlightRecorderDump dump = readFlightRecorderDump(bytes);
        const int64_t rank =
            requireRank(rankFromFileName(name), file,
                        "a Flight Recorder dump's name ends in its rank (nccl_trace_rank_3)");
        addOnce(job.dumps, job.dumpFiles, rank, std::move(dump), file, "Flight Recorder dump");
    } catch (const JobRecordError& e) {
        throw e.file.empty() ? e.inFile(file) : e;
    }
}

std::vector<int64_t> ranksMissing(const std::map<int64_t, std::string>& files, int64_t worldSize) {
    std::vector<int64_t> missing;
    for (int64_t rank = 0; rank < worldSize; ++rank)
        if (!files.count(rank)) missing.push_back(rank);
    return missing;
}

// A rank with a trace and no dump is checked on the dump its trace implies.
void dumpsFromTraces(JobRecord& job) {
    for (const auto& [rank, trace] : job.traces) {
        if (job.dumps.count(rank)) continue;
        TraceDump derived = dumpOfTrace(trace);
        job.traceCollectivesSkipped += derived.skipped;
        if (derived.dump.entries.empty()) continue;
        job.dumps.emplace(rank, std::move(derived.dump));
        job.dumpFiles.emplace(rank, job.traceFiles.at(rank));
        job.ranksFromTrace.push_back(rank);
    }
}

void findMissingRanks(JobRecord& job) {
    int64_t highest = -1;
    for (const auto& [rank, file] : job.dumpFiles) highest = std::max(highest, rank);
    for (const auto& [rank, trace] : job.traces)
        highest = std::max({highest, rank, trace.worldSize.value_or(0) - 1});
    for (const auto& [rank, dump] : job.dumps)
        for (const auto& group : dump.groups)
            for (int64_t member : group.ranks) highest = std::max(highest, member);
    job.worldSize = highest + 1;
    job.ranksWithoutDump = ranksMissing(job.dumpFiles, job.worldSize);
    if (!job.traces.empty()) job.ranksWithoutTrace = ranksMissing(job.traceFiles, job.worldSize);
}

}  // namespace

std::optional<int64_t> rankFromFileName(std::string_view name) {
    for (std::string_view extension : {".json", ".pkl", ".pickle"})
        if (name.size() > extension.size() && name.ends_with(extension)) {
            name.remove_suffix(extension.size());
            break;
        }
    size_t digits = 0;
    while (digits < name.size() &&
           std::isdigit(static_cast<unsigned char>(name[name.size() - 1 - digits])))
        ++digits;
    if (digits == 0 || digits > 8) return std::nullopt;
    int64_t rank = 0;
    std::from_chars(name.data() + name.size() - digits, name.data() + name.size(), rank);
    if (rank > kMaxRank) return std::nullopt;
    return rank;
}

namespace {

void stopIfAsked(const std::stop_token& stop) {
    if (stop.stop_requested()) throw JobRecordError("", "reading cancelled");
}

}  // namespace

JobRecord readJobRecord(const std::vector<std::string>& paths, std::stop_token stop) {
    if (paths.empty()) throw JobRecordError("", "no files or folders to read a job record from");
    JobRecord job;
    for (const auto& path : paths) {
        std::error_code error;
        if (fs::is_directory(path, error)) {
            const auto files = filesOf(path);
            if (files.empty()) throw JobRecordError("", "the folder holds no files", path);
            for (const auto& file : files) {
                stopIfAsked(stop);
                readOne(file, job);
            }
        } else {
            stopIfAsked(stop);
            readOne(path, job);
        }
    }
    dumpsFromTraces(job);
    findMissingRanks(job);
    return job;
}

}  // namespace hsdp
