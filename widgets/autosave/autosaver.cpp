// SPDX-License-Identifier: Apache-2.0
#include "autosave/autosaver.h"

#include "autosave/autosave_store.h"
#include "shared/scenario_document.h"

namespace hsdp {

Autosaver::Autosaver(ScenarioDocument* document, const QString& dir, std::function<QString()> file,
                     QObject* parent)
    : QObject(parent),
      document_(document),
      store_(std::make_unique<AutosaveStore>(dir)),
      file_(std::move(file)) {
    idle_.setSingleShot(true);
    max_.setSingleShot(true);
    setDelays(kIdleMs, kMaxMs);
    connect(&idle_, &QTimer::timeout, this, &Autosaver::saveNow);
    connect(&max_, &QTimer::timeout, this, &Autosaver::saveNow);
    connect(document, &ScenarioDocument::valueChanged, this, &Autosaver::onEdited);
    connect(document, &ScenarioDocument::modifiedChanged, this, &Autosaver::onModifiedChanged);
    connect(document, &ScenarioDocument::documentReset, this, &Autosaver::onReset);
    if (document->isLoaded()) base_ = document->json();
    if (document->isModified()) onEdited();
}

// A window torn down with unsaved edits keeps its copy (the store's
// destructor leaves it for the next studio): nothing here removes it.
Autosaver::~Autosaver() = default;

void Autosaver::setDelays(int idleMs, int maxMs) {
    idle_.setInterval(idleMs);
    max_.setInterval(maxMs);
}

// Every keystroke restarts the idle delay; the max delay runs from the
// first edit not yet set aside, so a long burst is saved on the way.
void Autosaver::onEdited() {
    if (!document_ || !document_->isModified()) return;
    idle_.start();
    if (!max_.isActive()) max_.start();
}

void Autosaver::onModifiedChanged(bool modified) {
    if (modified) {
        onEdited();  // a document that exists on no disk yet is unsaved from the start
        return;
    }
    idle_.stop();
    max_.stop();
    base_ = document_->json();  // saved, or back at the file's version
    store_->removeOwn();
}

void Autosaver::onReset() {
    idle_.stop();
    max_.stop();
    base_ = document_->json();
    store_->removeOwn();
}

void Autosaver::saveNow() {
    idle_.stop();
    max_.stop();
    if (!document_ || !document_->isModified()) return;
    QString error;
    if (store_->save(base_, document_->json(), file_(), &error)) {
        failing_ = false;
        emit saved();
        return;
    }
    if (!failing_) emit failed(error);
    failing_ = true;
}

}  // namespace hsdp
