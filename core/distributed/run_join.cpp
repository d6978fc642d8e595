// SPDX-License-Identifier: Apache-2.0
#include "distributed/run_join.h"

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include <nlohmann/json.hpp>

namespace hsdp {

namespace fs = std::filesystem;

namespace {

uint64_t fnv1a(uint64_t h, const std::string& text) {
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

// Files only a run that got going leaves behind.
bool earlierResults(const StoreFolder& folder) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(folder.dir(), ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("share.", 0) == 0 || name.rfind("finished.", 0) == 0 ||
            name.rfind("failed.", 0) == 0)
            return true;
    }
    return false;
}

void openRun(const StoreFolder& folder, const RunCard& card, bool fresh) {
    std::error_code ec;
    if (fs::exists(folder.path("run.json"), ec) || earlierResults(folder)) {
        if (!fresh)
            throw std::runtime_error("the store folder " + folder.dir() +
                                     " holds an earlier run; start process 0 with --fresh to "
                                     "empty it, or give a new folder");
        for (const auto& entry : fs::directory_iterator(folder.dir())) fs::remove_all(entry.path());
    }
    fs::create_directories(folder.glooDir());
    writeWhole(folder.path("scenario.json"), card.scenarioText);
    const nlohmann::json run = {
        {"digest", card.digest()}, {"procs", card.procs}, {"settings", card.settings}};
    writeWhole(folder.path("run.json"), run.dump());
}

void awaitRun(const StoreFolder& folder, const RunCard& card, int proc,
              std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        std::error_code ec;
        if (fs::exists(folder.path("run.json"), ec) && !earlierResults(folder)) {
            const RunCard theirs = readRunCard(folder);
            if (theirs.digest() != card.digest())
                throw std::runtime_error(
                    "process " + std::to_string(proc) + " has scenario digest " + card.digest() +
                    " (" + std::to_string(card.procs) + " processes), but the run in " +
                    folder.dir() + " has " + theirs.digest() + " (" + std::to_string(theirs.procs) +
                    " processes): every process must read the same scenario with the same "
                    "options; refusing to mix");
            return;
        }
        if (std::chrono::steady_clock::now() > deadline)
            throw std::runtime_error("process 0 never opened a run in " + folder.dir() +
                                     " (an earlier run's results are still there, or process 0 "
                                     "did not start)");
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

}  // namespace

std::string RunCard::digest() const {
    uint64_t h = fnv1a(14695981039346656037ull, scenarioText);
    for (const auto& s : settings) h = fnv1a(h, "\n" + s);
    h = fnv1a(h, "\nprocs " + std::to_string(procs));
    char text[17];
    std::snprintf(text, sizeof text, "%016" PRIx64, h);
    return text;
}

void joinRun(const StoreFolder& folder, const RunCard& card, int proc, bool fresh,
             std::chrono::milliseconds timeout) {
    try {
        if (proc == 0)
            openRun(folder, card, fresh);
        else
            awaitRun(folder, card, proc, timeout);
    } catch (...) {
        try {
            folder.mark("failed", proc);
        } catch (...) {
        }
        throw;
    }
}

RunCard readRunCard(const StoreFolder& folder) {
    const std::string path = folder.path("run.json");
    const std::string text = readWhole(path);
    RunCard card;
    card.scenarioText = readWhole(folder.path("scenario.json"));
    try {
        const auto run = nlohmann::json::parse(text);
        card.settings = run.at("settings").get<std::vector<std::string>>();
        // Checked before it is converted (a float converts unchecked) and
        // bounded: collect waits for a share from each process.
        const auto& procs = run.at("procs");
        if (!procs.is_number_integer() || procs.get<int64_t>() < 1 ||
            procs.get<int64_t>() > kMaxRunProcesses)
            throw std::runtime_error(path + ": \"procs\": expected an integer in 1.." +
                                     std::to_string(kMaxRunProcesses) + ", got " + procs.dump());
        card.procs = procs.get<int>();
        return card;
    } catch (const nlohmann::json::exception& error) {
        throw std::runtime_error(path + ": " + error.what());
    }
}

void waitForShares(const StoreFolder& folder, int procs, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        std::string missing;
        for (int p = 0; p < procs; ++p) {
            std::error_code ec;
            if (!fs::exists(folder.sharePath(p), ec))
                missing += (missing.empty() ? "" : ", ") + std::to_string(p);
        }
        if (missing.empty()) return;
        if (std::chrono::steady_clock::now() > deadline)
            throw std::runtime_error("no result from process " + missing + " in " + folder.dir());
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

}  // namespace hsdp
