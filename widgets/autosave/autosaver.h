// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QPointer>
#include <QThreadPool>
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
// at the time of writing ("" for one never saved). Writes and removals run on
// a thread of their own, in the order they were asked for: a scenario of
// 12,000 params is a 1.3 MB copy, a fifth of a second the GUI never waits.
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
    // Waits until every write and removal asked for so far is done.
    void flush();
    AutosaveStore& store() const { return *store_; }

signals:
    void saved();  // a copy was written
    // Writing failed; said once until a write succeeds again.
    void failed(const QString& message);

private:
    void onEdited();
    void onModifiedChanged(bool modified);
    void onReset();
    void removeCopy();
    void reportWrite(bool ok, const QString& error);  // on the GUI thread

    QPointer<ScenarioDocument> document_;
    std::unique_ptr<AutosaveStore> store_;
    std::function<QString()> file_;
    // The document as last read, generated or saved.
    std::shared_ptr<const Json> base_;
    QTimer idle_;
    QTimer max_;
    bool failing_ = false;
    // One thread: a removal never overtakes the write before it. Destroyed
    // before the store, after its last write.
    QThreadPool writer_;
};

}  // namespace hsdp
