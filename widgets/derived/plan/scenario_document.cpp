// SPDX-License-Identifier: Apache-2.0
#include "derived/plan/scenario_document.h"

#include <QScopedValueRollback>
#include <QUndoCommand>

namespace hsdp {

namespace {

using Pointer = Json::json_pointer;

// One edit of one value; merges with the next edit of the same value made in
// the same edit step (see ScenarioDocument::setValue).
class SetValueCommand : public QUndoCommand {
public:
    SetValueCommand(ScenarioDocument* document, QString pointer, std::optional<Json> before,
                    std::optional<Json> after, int editStep, const QString& label)
        : QUndoCommand(label),
          document_(document),
          pointer_(std::move(pointer)),
          before_(std::move(before)),
          after_(std::move(after)),
          editStep_(editStep) {}

    int id() const override { return 1; }
    void redo() override { document_->apply(pointer_, after_); }
    void undo() override { document_->apply(pointer_, before_); }

    bool mergeWith(const QUndoCommand* other) override {
        auto* next = static_cast<const SetValueCommand*>(other);
        if (next->pointer_ != pointer_ || next->editStep_ != editStep_) return false;
        after_ = next->after_;
        setObsolete(after_ == before_);
        return true;
    }

private:
    ScenarioDocument* document_;
    QString pointer_;
    std::optional<Json> before_;
    std::optional<Json> after_;
    int editStep_;
};

Pointer toPointer(const QString& pointer) {
    return Pointer(pointer.toStdString());
}

}  // namespace

ScenarioDocument::ScenarioDocument(QObject* parent) : QObject(parent) {
    connect(&undo_, &QUndoStack::cleanChanged, this,
            [this](bool clean) { emit modifiedChanged(!clean); });
}

// ~QUndoStack emits cleanChanged for a modified history; by then our owner
// (the window) is half destroyed, so nobody may hear it.
ScenarioDocument::~ScenarioDocument() {
    disconnect(&undo_, nullptr, this, nullptr);
}

void ScenarioDocument::reset(std::shared_ptr<const Json> document) {
    json_ = document ? *document : Json();
    loaded_ = document != nullptr;
    snapshot_ = std::move(document);
    undo_.clear();
    emit documentReset();
}

std::shared_ptr<const Json> ScenarioDocument::snapshot() const {
    if (!snapshot_) snapshot_ = std::make_shared<const Json>(json_);
    return snapshot_;
}

std::optional<Json> ScenarioDocument::value(const QString& pointer) const {
    Pointer p = toPointer(pointer);
    if (!json_.contains(p)) return std::nullopt;
    return json_.at(p);
}

void ScenarioDocument::setValue(const QString& pointer, std::optional<Json> value,
                                const QString& label) {
    std::optional<Json> before = this->value(pointer);
    if (before == value) return;
    const bool merges = stepOpenOn(pointer);
    if (!merges) {
        emit editStepStarted();
        stepBefore_ = before;
        stepLabel_ = label;
    }
    undo_.push(
        new SetValueCommand(this, pointer, std::move(before), std::move(value), editStep_, label));
    lastPointer_ = pointer;
    lastStep_ = editStep_;
    lastIndex_ = undo_.index();
}

// Within the open step this merges into its command, which, back at its old
// value, is dropped from the history (SetValueCommand::mergeWith).
void ScenarioDocument::revertOpenEdit(const QString& pointer) {
    if (!stepOpenOn(pointer)) return;
    QScopedValueRollback<bool> reverting(reverting_, true);
    setValue(pointer, stepBefore_, stepLabel_);
}

bool ScenarioDocument::stepOpenOn(const QString& pointer) const {
    return pointer == lastPointer_ && editStep_ == lastStep_ && undo_.index() == lastIndex_ &&
           undo_.index() == undo_.count();
}

void ScenarioDocument::apply(const QString& pointer, const std::optional<Json>& value) {
    Pointer p = toPointer(pointer);
    if (value) {
        json_[p] = *value;  // creates a missing "options" object on the way
    } else if (json_.contains(p)) {
        Json& parent = json_.at(p.parent_pointer());
        if (parent.is_object()) parent.erase(p.back());
    }
    snapshot_.reset();
    emit valueChanged(pointer);
}

QString jsonPointerToken(const QString& key) {
    QString token = key;
    return token.replace(QLatin1Char('~'), QStringLiteral("~0"))
        .replace(QLatin1Char('/'), QStringLiteral("~1"));
}

}  // namespace hsdp
