// SPDX-License-Identifier: Apache-2.0
#include "trace/trace_widget.h"

#include <QApplication>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

#include "studio/offscreen_grab.h"

namespace hsdp {

namespace {

QToolButton* toolButton(const QString& text, const QString& tip, QWidget* parent) {
    auto* button = new QToolButton(parent);
    button->setText(text);
    button->setToolTip(tip);
    button->setAutoRaise(true);
    return button;
}

}  // namespace

TraceWidget::TraceWidget(PlanSelection* selection, QWidget* parent)
    : QWidget(parent), canvas_(new TraceCanvas(selection, this)), colouring_(new QComboBox(this)) {
    colouring_->addItem(tr("phase"));
    colouring_->addItem(tr("op"));
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 2, 6, 0);
    bar->addWidget(new QLabel(tr("Colour by"), this));
    bar->addWidget(colouring_);
    bar->addStretch(1);
    auto* hint =
        new QLabel(tr("wheel: zoom · drag / arrows: pan · click: select a collective"), this);
    hint->setStyleSheet(QStringLiteral("color: #777;"));
    bar->addWidget(hint);
    auto* zoomOut = toolButton(QStringLiteral("−"), tr("Zoom out (Ctrl+-)"), this);
    auto* zoomIn = toolButton(QStringLiteral("+"), tr("Zoom in (Ctrl+=)"), this);
    auto* fit = toolButton(tr("Fit"), tr("Show the whole run (Ctrl+0)"), this);
    bar->addWidget(zoomOut);
    bar->addWidget(zoomIn);
    bar->addWidget(fit);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    layout->addWidget(canvas_, 1);
    connect(zoomIn, &QToolButton::clicked, canvas_, &TraceCanvas::zoomIn);
    connect(zoomOut, &QToolButton::clicked, canvas_, &TraceCanvas::zoomOut);
    connect(fit, &QToolButton::clicked, canvas_, &TraceCanvas::fit);
    connect(colouring_, &QComboBox::currentIndexChanged, this, [this](int index) {
        canvas_->setColouring(index == 1 ? TraceColouring::Op : TraceColouring::Phase);
    });
}

void TraceWidget::setRun(const RunData& run) {
    canvas_->setRun(run);
}

void TraceWidget::setColouring(TraceColouring colouring) {
    colouring_->setCurrentIndex(colouring == TraceColouring::Op ? 1 : 0);
}

QImage TraceWidget::renderImage(QSize size) {
    return grabOffscreen(*this, size);
}

QList<ViewShot> TraceWidget::screenshots() const {
    if (!canvas_->timeline()) return {};
    return {ViewShot{{}, QSize(1600, 900), {}}};
}

}  // namespace hsdp
