// SPDX-License-Identifier: Apache-2.0
#include "autosave/autosave_store.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QSaveFile>
#include <QUuid>
#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace hsdp {

namespace {

constexpr const char* kFormat = "hsdp-studio-autosave/1";

// Only a dead process makes a lock stale: with Qt's default (30 s) a studio
// editing for longer would see its own copy offered to the next studio.
std::unique_ptr<QLockFile> lockFile(const QString& path) {
    auto lock = std::make_unique<QLockFile>(path);
    lock->setStaleLockTime(0);
    return lock;
}

QString absolute(const QString& file) {
    return file.isEmpty() ? QString() : QFileInfo(file).absoluteFilePath();
}

std::runtime_error readError(const QString& path, const QString& problem) {
    return std::runtime_error(QStringLiteral("%1: %2").arg(path, problem).toStdString());
}

}  // namespace

ClaimedCopy::ClaimedCopy() = default;
ClaimedCopy::ClaimedCopy(ClaimedCopy&&) noexcept = default;
ClaimedCopy& ClaimedCopy::operator=(ClaimedCopy&&) noexcept = default;
ClaimedCopy::~ClaimedCopy() = default;  // ~QLockFile unlocks: the copy stays

AutosaveStore::AutosaveStore(QString dir) : dir_(std::move(dir)) {}

AutosaveStore::~AutosaveStore() = default;

QString AutosaveStore::slotPath(const QString& id, const char* suffix) const {
    return QDir(dir_).filePath(id + QLatin1String(suffix));
}

QString AutosaveStore::ownCopyPath() const {
    QMutexLocker locked(&mutex_);
    return id_.isEmpty() ? QString() : slotPath(id_, ".json");
}

bool AutosaveStore::hasOwnCopy() const {
    QMutexLocker locked(&mutex_);
    return hasCopy_;
}

// The slot's lock is held from before the first write until the copy is
// removed. A slot another studio holds (it claimed our lock between a
// remove and this write) makes way for a new one.
bool AutosaveStore::lockOwnSlot(QString* error) {
    if (lock_ && lock_->isLocked()) return true;
    for (int attempt = 0; attempt < 3; ++attempt) {
        if (id_.isEmpty() || attempt > 0) {
            QMutexLocker locked(&mutex_);
            id_ = QUuid::createUuid().toString(QUuid::WithoutBraces);
        }
        lock_ = lockFile(slotPath(id_, ".lock"));
        if (lock_->tryLock(0)) return true;
    }
    if (error)
        *error = QCoreApplication::translate("AutosaveStore", "cannot lock %1 (QLockFile error %2)")
                     .arg(slotPath(id_, ".lock"))
                     .arg(int(lock_->error()));
    return false;
}

bool AutosaveStore::save(const Json& base, const Json& document, const QString& file,
                         QString* error) {
    if (!QDir().mkpath(dir_)) {
        if (error)
            *error = QCoreApplication::translate("AutosaveStore", "cannot create the folder %1")
                         .arg(dir_);
        return false;
    }
    if (!lockOwnSlot(error)) return false;
    Json record = Json::object();
    record["format"] = kFormat;
    record["file"] = absolute(file).toStdString();
    record["saved_at"] = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs).toStdString();
    record["pid"] = QCoreApplication::applicationPid();
    record["base"] = base;
    record["document"] = document;
    const std::string text = record.dump();
    QSaveFile out(slotPath(id_, ".json"));
    const bool written = out.open(QIODevice::WriteOnly) &&
                         out.write(text.data(), qint64(text.size())) == qint64(text.size()) &&
                         out.commit();  // the old copy is replaced only by a complete one
    if (!written) {
        if (error)
            *error = QCoreApplication::translate("AutosaveStore", "cannot write %1: %2")
                         .arg(out.fileName(), out.errorString());
        return false;
    }
    QMutexLocker locked(&mutex_);
    hasCopy_ = true;
    return true;
}

void AutosaveStore::removeOwn() {
    if (!id_.isEmpty()) QFile::remove(slotPath(id_, ".json"));
    if (lock_) lock_->unlock();  // removes the lock file
    QMutexLocker locked(&mutex_);
    hasCopy_ = false;
}

std::vector<ClaimedCopy> AutosaveStore::claimOrphans(const QString& file) const {
    const QString wanted = absolute(file);
    const QString own = QFileInfo(ownCopyPath()).completeBaseName();
    std::vector<ClaimedCopy> claimed;
    const auto entries = QDir(dir_).entryInfoList({QStringLiteral("*.json")}, QDir::Files);
    for (const QFileInfo& entry : entries) {
        const QString id = entry.completeBaseName();
        if (id == own) continue;  // (its lock would refuse us anyway)
        ClaimedCopy claim;
        claim.path = entry.absoluteFilePath();
        claim.lock = lockFile(slotPath(id, ".lock"));
        if (!claim.lock->tryLock(0)) continue;         // a running studio's, or claimed
        if (!QFileInfo::exists(claim.path)) continue;  // removed by its studio meanwhile
        try {
            claim.copy = read(claim.path);
        } catch (const std::exception& problem) {
            std::fprintf(stderr, "hsdp-studio: an unsaved-edits copy left alone: %s\n",
                         problem.what());
            continue;
        }
        if (!wanted.isEmpty() && claim.copy.file != wanted) continue;
        claimed.push_back(std::move(claim));
    }
    std::sort(claimed.begin(), claimed.end(), [](const ClaimedCopy& a, const ClaimedCopy& b) {
        return a.copy.savedAt > b.copy.savedAt;
    });
    return claimed;
}

void AutosaveStore::discard(ClaimedCopy& claimed) {
    QFile::remove(claimed.path);
    if (claimed.lock) claimed.lock->unlock();
}

AutosaveCopy AutosaveStore::read(const QString& path) {
    QFile in(path);
    if (!in.open(QIODevice::ReadOnly)) throw readError(path, in.errorString());
    const QByteArray bytes = in.readAll();
    Json record;
    try {
        record = parseStrictJson(std::string_view(bytes.constData(), size_t(bytes.size())));
    } catch (const std::exception& problem) {
        throw readError(path, QString::fromStdString(problem.what()));
    }
    auto field = [&](const char* key, Json::value_t type) -> const Json& {
        auto found = record.find(key);
        if (found == record.end() || found->type() != type)
            throw readError(path,
                            QStringLiteral("no %1 of the expected type").arg(QLatin1String(key)));
        return *found;
    };
    if (!record.is_object() || record.value("format", Json()) != kFormat)
        throw readError(path, QStringLiteral("not an %1 copy").arg(QLatin1String(kFormat)));
    AutosaveCopy copy;
    copy.id = QFileInfo(path).completeBaseName();
    copy.file = QString::fromStdString(field("file", Json::value_t::string).get<std::string>());
    copy.savedAt = QDateTime::fromString(
        QString::fromStdString(field("saved_at", Json::value_t::string).get<std::string>()),
        Qt::ISODateWithMs);
    copy.pid = record.value("pid", qint64(0));
    copy.base = field("base", Json::value_t::object);
    copy.document = field("document", Json::value_t::object);
    return copy;
}

}  // namespace hsdp
