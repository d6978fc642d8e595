// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDateTime>
#include <QMutex>
#include <QString>
#include <memory>
#include <vector>

#include "scenario/json_text.h"

class QLockFile;

namespace hsdp {

// A scenario's unsaved edits, set aside by a studio.
struct AutosaveCopy {
    QString id;         // the slot: <id>.json and <id>.lock in the store's folder
    QString file;       // the scenario file's absolute path; "" for one never saved
    QDateTime savedAt;  // when it was written (UTC)
    qint64 pid = 0;     // the studio process that wrote it
    Json base;          // what the edits began from: the file as read, or as generated
    Json document;      // the edited scenario
};

// A copy this studio holds the lock of, so that no other studio offers it
// meanwhile. Dropping the claim (Later) unlocks it: the copy stays for the
// next studio to offer; AutosaveStore::discard removes it.
struct ClaimedCopy {
    AutosaveCopy copy;
    QString path;  // of the copy's file
    std::unique_ptr<QLockFile> lock;

    ClaimedCopy();
    ClaimedCopy(ClaimedCopy&&) noexcept;
    ClaimedCopy& operator=(ClaimedCopy&&) noexcept;
    ~ClaimedCopy();
};

// The folder where studios set their unsaved edits aside (the studio uses
// <AppDataLocation>/autosave). Each studio writes one slot of its own, named
// by a random id, so two studios never overwrite each other's copy, even of
// the same file: <id>.json (written whole through QSaveFile, then renamed
// into place) and <id>.lock, a QLockFile with the studio's PID that it holds
// while it has a copy. A copy whose lock is missing or stale (its process is
// gone: killed, crashed) belongs to nobody and is offered for restoring; a
// running studio's never is. Qt Core only. save() and removeOwn() run on one
// thread at a time (the autosaver's writer); the rest on any.
class AutosaveStore {
public:
    explicit AutosaveStore(QString dir);
    // Unlocks this studio's slot; a copy still there stays for the next
    // studio to offer (a window torn down with unsaved edits).
    ~AutosaveStore();
    AutosaveStore(const AutosaveStore&) = delete;
    AutosaveStore& operator=(const AutosaveStore&) = delete;

    QString dir() const { return dir_; }

    // Writes this studio's copy (replacing its previous one): locks the slot
    // first, then writes. False with the reason (naming the file) on failure.
    bool save(const Json& base, const Json& document, const QString& file, QString* error);
    // Removes this studio's copy and its lock: nothing unsaved any more.
    void removeOwn();
    bool hasOwnCopy() const;
    QString ownCopyPath() const;  // "" before the first save

    // Locks and reads every copy no running studio holds, newest first; with
    // `file`, only the copies of that file ("" for all). A copy that does
    // not read is left alone (and said on stderr).
    std::vector<ClaimedCopy> claimOrphans(const QString& file = {}) const;
    // Removes a claimed copy and its lock.
    static void discard(ClaimedCopy& claimed);

    // Reads the copy at `path`; throws std::runtime_error naming the file.
    static AutosaveCopy read(const QString& path);

private:
    QString slotPath(const QString& id, const char* suffix) const;
    bool lockOwnSlot(QString* error);

    QString dir_;
    mutable QMutex mutex_;  // id_ and hasCopy_, read from other threads
    QString id_;
    std::unique_ptr<QLockFile> lock_;
    bool hasCopy_ = false;
};

}  // namespace hsdp
