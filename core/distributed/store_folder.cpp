// SPDX-License-Identifier: Apache-2.0
#include "distributed/store_folder.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace hsdp {

namespace fs = std::filesystem;

namespace {

std::string markerName(const std::string& phase, int proc) {
    return phase + "." + std::to_string(proc);
}

std::string procList(const std::vector<int>& procs) {
    std::string text;
    for (size_t i = 0; i < procs.size(); ++i) text += (i ? ", " : "") + std::to_string(procs[i]);
    return text;
}

}  // namespace

void StoreFolder::mark(const std::string& phase, int proc) const {
    writeWhole(path(markerName(phase, proc)), std::to_string(getpid()));  // who, for a person
}

bool StoreFolder::marked(const std::string& phase, int proc) const {
    std::error_code ec;
    return fs::exists(path(markerName(phase, proc)), ec);
}

void StoreFolder::waitAll(const std::string& phase, int procs,
                          std::chrono::milliseconds timeout) const {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    // Short polls: on loopback every process gets here within milliseconds.
    auto pause = std::chrono::milliseconds(1);
    for (;;) {
        std::vector<int> missing;
        for (int p = 0; p < procs; ++p) {
            if (marked("failed", p))
                throw std::runtime_error("process " + std::to_string(p) + " failed");
            if (!marked(phase, p)) missing.push_back(p);
        }
        if (missing.empty()) return;
        if (std::chrono::steady_clock::now() >= deadline)
            throw std::runtime_error("processes " + procList(missing) + " never got to '" + phase +
                                     "' within " + std::to_string(timeout.count()) + " ms");
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::milliseconds(20));
    }
}

StoreFolder StoreFolder::createPrivate() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/hsdp-run-XXXXXX";
    if (!mkdtemp(pattern.data()))
        throw std::runtime_error("cannot create a store folder in " + pattern + ": " +
                                 std::strerror(errno));
    StoreFolder folder(pattern);
    fs::create_directory(folder.glooDir());
    return folder;
}

StoreFolder StoreFolder::prepare(const std::string& dir, bool fresh) {
    std::error_code ec;
    if (fs::exists(dir, ec) && !fs::is_empty(dir, ec)) {
        if (!fresh)
            throw std::runtime_error("the store folder " + dir +
                                     " holds files of an earlier run; give an empty folder or "
                                     "--fresh to empty it");
        for (const auto& entry : fs::directory_iterator(dir)) fs::remove_all(entry.path());
    }
    fs::create_directories(dir + "/gloo");
    return StoreFolder(dir);
}

void StoreFolder::removeAll() const {
    std::error_code ec;
    fs::remove_all(dir_, ec);
}

void writeWhole(const std::string& path, const std::string& bytes) {
    const std::string tmp = path + ".tmp" + std::to_string(getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), std::streamsize(bytes.size()));
        if (!out) throw std::runtime_error("cannot write " + tmp);
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) throw std::runtime_error("cannot rename " + tmp + " to " + path + ": " + ec.message());
}

std::string readWhole(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace hsdp
