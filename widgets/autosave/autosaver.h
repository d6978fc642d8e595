// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QPointer>
#include <QTimer>
#include <functional>
#include <memory>

#include "scenario/json_text.h"

namespace hsdp {

class AutosaveStore;
class ScenarioDocument;

// Sets the document's unsaved edits aside in the store: once the edits stop
// for a moment (idle delay) and, while they go on, at least every max delay,
// so a crash loses at most those last seconds. When nothing is unsaved any
// more (the file saved, the edits discarded or undone, another document
// opened) the copy is removed. `file` says which file the document belongs to
// at the time of writing ("" for one never saved).
class Autosaver : public QObject {
    Q_OBJECT
public:
    static constexpr int kIdleMs = 1000;
    static constexpr int kMaxMs = 10000;

    // The copies go to the store in `dir` (created when first needed).
    Autosaver(ScenarioDocument* document, const QString& dir, std::function<QString()> file,
              QObject* parent = nullptr);
    ~Autosaver() override;

    void setDelays(int idleMs, int maxMs);
    // Writes the copy now if the document has unsaved edits (a restore).
    void saveNow();
    AutosaveStore& store() const { return *store_; }

signals:
    void saved();  // a copy was written
    // Writing failed; said once until a write succeeds again.
    void failed(const QString& message);

private:
    void onEdited();
    void onModifiedChanged(bool modified);
    void onReset();

    QPointer<ScenarioDocument> document_;
    std::unique_ptr<AutosaveStore> store_;
    std::function<QString()> file_;
    Json base_;  // the document as last read, generated or saved
    QTimer idle_;
    QTimer max_;
    bool failing_ = false;
};

}  // namespace hsdp
