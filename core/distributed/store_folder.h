// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace hsdp {

// The folder the processes of one split run share: a private temporary
// folder for local workers, a shared one (e.g. NFS) across hosts.
//   scenario.json   the scenario text (written by a parent for its local workers)
//   digest          the scenario's digest, written by the first worker to come
//   gloo/           Gloo's FileStore, where the process groups rendezvous
//   <phase>.<proc>  markers: connected, finished, failed (each holds the pid)
//   share.<proc>    each process's outcome, written whole then renamed
// Markers are plain files rather than store keys so a waiting process can
// look for "every process got there" and "one of them failed" at once.
class StoreFolder {
public:
    explicit StoreFolder(std::string dir) : dir_(std::move(dir)) {}

    const std::string& dir() const { return dir_; }
    std::string path(const std::string& name) const { return dir_ + "/" + name; }
    std::string glooDir() const { return path("gloo"); }
    std::string sharePath(int proc) const { return path("share." + std::to_string(proc)); }

    void mark(const std::string& phase, int proc) const;
    bool marked(const std::string& phase, int proc) const;
    // Returns once each of procs 0..procs-1 has marked `phase`. Throws
    // std::runtime_error naming a process that marked "failed" first, or the
    // processes still missing when `timeout` runs out.
    void waitAll(const std::string& phase, int procs, std::chrono::milliseconds timeout) const;

    // A new folder (mode 0700) under $TMPDIR or /tmp, with gloo/ in it.
    static StoreFolder createPrivate();
    // Prepares `dir` for a run: creates it (and gloo/) when missing; an
    // existing folder holding anything is refused (std::runtime_error) unless
    // `fresh`, which empties it first.
    static StoreFolder prepare(const std::string& dir, bool fresh);
    void removeAll() const;  // the folder and everything in it; never throws

private:
    std::string dir_;
};

// Writes `bytes` to a temporary file beside `path` and renames it into place,
// so a reader never sees half a file. Throws std::runtime_error.
void writeWhole(const std::string& path, const std::string& bytes);
// The whole file; throws std::runtime_error naming it.
std::string readWhole(const std::string& path);

}  // namespace hsdp
