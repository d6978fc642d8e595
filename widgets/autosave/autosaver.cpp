// SPDX-License-Identifier: Apache-2.0
#include "autosave/autosaver.h"

#include "autosave/autosave_store.h"
#include "derived/plan/scenario_document.h"

namespace hsdp {

Autosaver::Autosaver(ScenarioDocument* document, const QString& dir, std::function<QString()> file,
                     QObject* parent)
    : QObject(parent),
      document_(document),
      store_(std::make_unique<AutosaveStore>(dir)),
      file_(std::move(file)) {
    writer_.setMaxThreadCount(1);
    writer_.setExpiryTimeout(-1);
    idle_.setSingleShot(true);
    max_.setSingleShot(true);
    setDelays(kIdleMs, kMaxMs);
    connect(&idle_, &QTimer::timeout, this, &Autosaver::saveNow);
    connect(&max_, &QTimer::timeout, this, &Autosaver::saveNow);
    connect(document, &ScenarioDocument::valueChanged, this, &Autosaver::onEdited);
    connect(document, &ScenarioDocument::modifiedChanged, this, &Autosaver::onModifiedChanged);
    connect(document, &ScenarioDocument::documentReset, this, &Autosaver::onReset);
    base_ = document->snapshot();
    if (document->isModified()) onEdited();
}

// A window torn down with unsaved edits keeps its copy (the store's
// destructor leaves it for the next studio): nothing here removes it, and the
// last write asked for completes first.
Autosaver::~Autosaver() {
    writer_.waitForDone();
}

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
    base_ = document_->snapshot();  // saved, or back at the file's version
    removeCopy();
}

void Autosaver::onReset() {
    base_ = document_->snapshot();
    removeCopy();
}

void Autosaver::removeCopy() {
    idle_.stop();
    max_.stop();
    writer_.start([store = store_.get()] { store->removeOwn(); });
}

void Autosaver::flush() {
    writer_.waitForDone();
}

// The document's snapshot is immutable (planning shares it): the writer
// serializes it while the user goes on editing.
void Autosaver::saveNow() {
    idle_.stop();
    max_.stop();
    if (!document_ || !document_->isModified()) return;
    writer_.start([this, store = store_.get(), base = base_, document = document_->snapshot(),
                   file = file_()] {
        QString error;
        const bool ok = store->save(*base, *document, file, &error);
        QMetaObject::invokeMethod(
            this, [this, ok, error] { reportWrite(ok, error); }, Qt::QueuedConnection);
    });
}

void Autosaver::reportWrite(bool ok, const QString& error) {
    if (ok) {
        failing_ = false;
        emit saved();
        return;
    }
    if (!failing_) emit failed(error);
    failing_ = true;
}

}  // namespace hsdp
