// SPDX-License-Identifier: Apache-2.0
#include "trace/trace_zoom_bar.h"

#include <QHBoxLayout>
#include <QToolButton>

#include "trace/trace_canvas.h"

namespace hsdp {

QToolButton* flatToolButton(const QString& text, const QString& tip, QWidget* parent) {
    auto* button = new QToolButton(parent);
    button->setText(text);
    button->setToolTip(tip);
    button->setAutoRaise(true);
    return button;
}

TraceZoomBar::TraceZoomBar(std::vector<TraceCanvas*> canvases, QWidget* parent)
    : QWidget(parent),
      canvases_(std::move(canvases)),
      zoomOut_(flatToolButton(QStringLiteral("−"), tr("Zoom out (Ctrl+-)"), this)),
      zoomIn_(flatToolButton(QStringLiteral("+"), tr("Zoom in (Ctrl+=)"), this)),
      fit_(flatToolButton(tr("Fit"), tr("Show the whole run (Ctrl+0)"), this)) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(zoomOut_);
    layout->addWidget(zoomIn_);
    layout->addWidget(fit_);
    connect(zoomOut_, &QToolButton::clicked, this,
            [this] { applyToVisible([](TraceCanvas* c) { c->zoomOut(); }); });
    connect(zoomIn_, &QToolButton::clicked, this,
            [this] { applyToVisible([](TraceCanvas* c) { c->zoomIn(); }); });
    connect(fit_, &QToolButton::clicked, this,
            [this] { applyToVisible([](TraceCanvas* c) { c->fit(); }); });
}

// A hidden canvas (the plan's while a run is shown) keeps its window; one
// never shown yet (no parent window visible) counts as shown.
template <typename Action>
void TraceZoomBar::applyToVisible(Action action) {
    for (TraceCanvas* canvas : canvases_)
        if (!canvas->isHidden()) action(canvas);
}

}  // namespace hsdp
