// SPDX-License-Identifier: Apache-2.0
#include "autosave/restore_offer.h"

#include <QFileInfo>

#include "scenario/reader.h"

namespace hsdp {

RestoreOffer makeRestoreOffer(const AutosaveCopy& copy, const QString& copyPath) {
    RestoreOffer offer;
    offer.copy = copy;
    offer.copyPath = copyPath;
    offer.start = copy.base;
    if (copy.file.isEmpty()) {
        offer.disk = DiskState::Untitled;
    } else if (const QFileInfo info(copy.file); !info.exists()) {
        offer.disk = DiskState::Missing;
        offer.diskProblem = QObject::tr("%1 is no longer on disk").arg(copy.file);
    } else {
        offer.diskModified = info.lastModified().toUTC();
        try {
            offer.start = parseStrictJson(readScenarioFileText(copy.file.toStdString()));
            offer.disk =
                sameDocument(offer.start, copy.base) ? DiskState::Unchanged : DiskState::Changed;
        } catch (const std::exception& problem) {
            offer.disk = DiskState::Unreadable;
            offer.diskProblem = QString::fromStdString(problem.what());
        }
    }
    offer.changes = jsonChanges(offer.start, copy.document);
    return offer;
}

}  // namespace hsdp
