// SPDX-License-Identifier: Apache-2.0
// TraceCanvas's time window: fitting, zooming and panning, kept inside the
// run (or the extent two canvases share), and painting over another window.
#include <QPainter>
#include <algorithm>
#include <cmath>
#include <tuple>

#include "trace/trace_canvas.h"

namespace hsdp {

namespace {

constexpr double kFitMargin = 0.01;  // of the run's length, either side

}  // namespace

// The window never leaves the run (plus fit()'s margin): zooming out stops
// at the whole step, panning at its ends.
void TraceCanvas::setWindow(double t0, double t1) {
    const auto [begin, end] = extent();
    const double pad = (end - begin) * kFitMargin;
    const double span = std::clamp(t1 - t0, 0.05, end - begin + 2 * pad);
    t0_ = std::clamp(t0, begin - pad, end + pad - span);
    t1_ = t0_ + span;
    update();
}

void TraceCanvas::fit() {
    const auto [begin, end] = extent();
    std::tie(t0_, t1_) = fittedWindow(begin, end);
    update();
}

std::pair<double, double> TraceCanvas::fittedWindow(double beginUs, double endUs) {
    const double pad = (endUs - beginUs) * kFitMargin;
    return {beginUs - pad, endUs + pad};
}

std::pair<double, double> TraceCanvas::jointExtent(const TraceCanvas& a, const TraceCanvas& b) {
    const double begin = std::min(a.timelineBeginUs(), b.timelineBeginUs());
    return {begin, std::max({a.timelineEndUs(), b.timelineEndUs(), begin + 1})};
}

int TraceCanvas::paintTimeline(QPainter& painter, const QSize& size, double t0, double t1) {
    const std::pair<double, double> shown{t0_, t1_};
    t0_ = t0;
    t1_ = t1;
    const int bars = paintTimeline(painter, size);
    std::tie(t0_, t1_) = shown;
    return bars;
}

std::pair<double, double> TraceCanvas::extent() const {
    double begin = timelineBeginUs(), end = timelineEndUs();
    if (commonEndUs_ > commonBeginUs_) {
        begin = std::min(begin, commonBeginUs_);
        end = std::max(end, commonEndUs_);
    }
    return {begin, std::max(end, begin + 1)};
}

double TraceCanvas::timelineBeginUs() const {
    return timeline_ ? timeline_->beginUs() : 0;
}

double TraceCanvas::timelineEndUs() const {
    return timeline_ ? timeline_->endUs() : 0;
}

void TraceCanvas::setCommonExtent(double beginUs, double endUs) {
    commonBeginUs_ = beginUs;
    commonEndUs_ = endUs;
    fit();
}

void TraceCanvas::zoomIn() {
    zoomAround(1.5, kGutter + (width() - kGutter) / 2.0);
}

void TraceCanvas::zoomOut() {
    zoomAround(1 / 1.5, kGutter + (width() - kGutter) / 2.0);
}

void TraceCanvas::zoomAround(double factor, double x) {
    const TimeAxis axis = axisFor(size());
    const double anchor = axis.time(x);
    const double span = (t1_ - t0_) / factor;
    const double before = (anchor - t0_) / (t1_ - t0_);
    setWindow(anchor - before * span, anchor - before * span + span);
}

void TraceCanvas::panBy(double fraction) {
    const double shift = (t1_ - t0_) * fraction;
    setWindow(t0_ + shift, t1_ + shift);
}

// A step chosen elsewhere (the step panel) must be on screen: pan, keep the zoom.
void TraceCanvas::bringIntoView(int64_t seq) {
    if (!timeline_ || seq < 0) return;
    const auto& events = timeline_->eventsOfSeq(seq);
    if (events.empty()) return;
    double begin = timeline_->event(events.front()).startUs, end = begin;
    for (int e : events) {
        begin = std::min(begin, timeline_->event(e).startUs);
        end = std::max(end, timeline_->event(e).endUs);
    }
    if (begin >= t0_ && end <= t1_) return;
    const double span = t1_ - t0_;
    const double centre = (begin + end) / 2;
    setWindow(centre - span / 2, centre + span / 2);
}

}  // namespace hsdp
