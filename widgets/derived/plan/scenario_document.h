// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QString>
#include <QUndoStack>
#include <memory>
#include <optional>

#include "scenario/json_text.h"

namespace hsdp {

// The scenario file as the user edits it: its JSON document (member order and
// repeat blocks as written) and the undo history of every edit. Edits address
// values by JSON pointer — the same paths the reader's errors carry, so an
// error can be traced back to the field that caused it. A value of nullopt
// means "the key is absent" (an empty batch cap, a mesh without `ranks`).
class ScenarioDocument : public QObject {
    Q_OBJECT
public:
    explicit ScenarioDocument(QObject* parent = nullptr);
    ~ScenarioDocument() override;

    // A document read from disk: the new baseline, no history, not modified.
    void reset(std::shared_ptr<const Json> document);
    bool isLoaded() const { return loaded_; }
    const Json& json() const { return json_; }
    // An immutable copy of the current state, for planning off the GUI thread.
    std::shared_ptr<const Json> snapshot() const;

    std::optional<Json> value(const QString& pointer) const;
    // Sets (or with nullopt removes) the value at `pointer` as one undoable
    // step named `label`. Consecutive edits of one pointer merge into one step
    // until closeEditStep() (a field losing focus, Enter), so typing "1024"
    // is undone at once, and an edit back to the old value disappears.
    void setValue(const QString& pointer, std::optional<Json> value, const QString& label);
    void closeEditStep() { ++editStep_; }
    // Puts `pointer` back to the value it had when the edit step still open
    // on it began: a text that stops being a value ("8192," on the way to
    // "8192, two") must not leave the scenario holding whatever prefix of it
    // last read ([8192]). Nothing happens when no step is open on `pointer`.
    void revertOpenEdit(const QString& pointer);
    // Inside revertOpenEdit: the value put back is not one the user chose,
    // so the window does not plan it and the last valid plan stays on screen.
    bool isReverting() const { return reverting_; }

    QUndoStack* undoStack() { return &undo_; }
    bool isModified() const { return !undo_.isClean(); }
    void markSaved() { undo_.setClean(); }
    // A document that exists on no disk yet: modified until saved.
    void markUnsaved() { undo_.resetClean(); }

    // Used by the undo commands: applies a value without recording it.
    void apply(const QString& pointer, const std::optional<Json>& value);

signals:
    void documentReset();  // another document: rebuild everything
    // setValue() is about to start a new undo step (not a keystroke merged
    // into the current one).
    void editStepStarted();
    void valueChanged(const QString& pointer);  // an edit, undo or redo
    void modifiedChanged(bool modified);

private:
    // The last setValue was on `pointer`, in this edit step, and nothing was
    // undone or done since: the next edit of it merges into that command.
    bool stepOpenOn(const QString& pointer) const;

    Json json_;
    bool loaded_ = false;
    mutable std::shared_ptr<const Json> snapshot_;  // cached until the next change
    QUndoStack undo_;
    int editStep_ = 0;
    // The last setValue's pointer, edit step and the stack index after it
    // (stepOpenOn).
    QString lastPointer_;
    int lastStep_ = -1;
    int lastIndex_ = -1;
    std::optional<Json> stepBefore_;  // lastPointer_'s value when its step began
    QString stepLabel_;
    bool reverting_ = false;
};

// "/meshes/a~1b" for the key "a/b": RFC 6901 escaping of one reference token.
QString jsonPointerToken(const QString& key);

}  // namespace hsdp
