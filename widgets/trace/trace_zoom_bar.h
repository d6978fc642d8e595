// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>
#include <vector>

class QToolButton;

namespace hsdp {

// A text tool button drawn flat until hovered, as the trace views' bars use.
QToolButton* flatToolButton(const QString& text, const QString& tip, QWidget* parent);

class TraceCanvas;

// The −, + and Fit buttons over one or more trace canvases: each zooms every
// visible canvas it was given (the measured trace has one, the predicted
// timeline one for the plan and two for a run above its prediction).
class TraceZoomBar : public QWidget {
    Q_OBJECT
public:
    explicit TraceZoomBar(std::vector<TraceCanvas*> canvases, QWidget* parent = nullptr);

    QToolButton* zoomOutButton() const { return zoomOut_; }
    QToolButton* zoomInButton() const { return zoomIn_; }
    QToolButton* fitButton() const { return fit_; }

private:
    template <typename Action>
    void applyToVisible(Action action);

    std::vector<TraceCanvas*> canvases_;
    QToolButton* zoomOut_;
    QToolButton* zoomIn_;
    QToolButton* fit_;
};

}  // namespace hsdp
