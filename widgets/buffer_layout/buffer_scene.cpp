// SPDX-License-Identifier: Apache-2.0
#include "buffer_layout/buffer_scene.h"

#include <QFontMetricsF>
#include <QGuiApplication>
#include <QLocale>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <optional>

#include "types/figures.h"

namespace hsdp {

namespace {

constexpr double kMargin = 12;
constexpr double kLabelWidth = 84;  // "rank 123" column left of the bars
constexpr double kHeader = 20;      // a section's heading
constexpr double kMinPadding = 3;   // padding stays visible however thin
constexpr double kGap = 16;
constexpr double kSendHeight = 48;
constexpr double kCutHeight = 52;
constexpr double kLinkZone = 44;

QString bytes(int64_t n) {
    return QString::fromStdString(exactBytes(n));
}

// A total of the buffer: exact bytes, and for a shrunk run that they are of
// the shrunk run, with the real-size figure when known.
QString runBytes(const BufferLayout& layout, int64_t n) {
    if (!layout.shrunk()) return bytes(n);
    QString text = bytes(n) + QStringLiteral(" in the shrunk run");
    if (layout.realRatio)
        text += QStringLiteral(" (≈ %1 at real size)")
                    .arg(QString::fromStdString(humanBytes(double(n) * *layout.realRatio)));
    return text;
}

QString rowsText(const IndexSet& set) {
    QStringList parts;
    for (const auto& r : set)
        parts << (r.size() == 1 ? QString::number(r.begin)
                                : QStringLiteral("%1–%2").arg(r.begin).arg(r.end - 1));
    return parts.isEmpty() ? QStringLiteral("none") : parts.join(QStringLiteral(", "));
}

QString name(const BufferLayout& layout, int param) {
    return QString::fromStdString(layout.nameOf(param));
}

// Horizontal byte scale shared by the send buffer and the gathered slots.
struct ByteScale {
    double x0 = 0, x1 = 0;
    int64_t total = 1;
    double at(int64_t b) const {
        return x0 + (x1 - x0) * double(b) / double(std::max<int64_t>(total, 1));
    }
};

QString segmentTip(const BufferLayout& layout, const BufferSegment& s, int rank,
                   int64_t slotStart) {
    QString tip = QStringLiteral("%1 (rank %2's slot)\noffset %3 · length %4 · padding %5")
                      .arg(name(layout, s.param))
                      .arg(rank)
                      .arg(bytes(s.offset), bytes(s.length), bytes(s.padding));
    if (slotStart >= 0)
        tip += QStringLiteral("\nin the gathered buffer: bytes %1–%2")
                   .arg(slotStart + s.offset)
                   .arg(slotStart + s.offset + s.length + s.padding - 1);
    return tip;
}

// One slot as a bar: a payload and (when there is any) a padding rectangle per segment.
void addSlot(BufferScene& scene, const BufferLayout& layout, const SlotRow& slot,
             const ByteScale& scale, double y, double h, int section, int64_t slotStart) {
    for (const auto& s : slot.segments) {
        const double a = scale.at(s.offset), b = scale.at(s.offset + s.length);
        const double e = scale.at(s.offset + s.length + s.padding);
        const QString tip = segmentTip(layout, s, slot.rank, slotStart);
        QStringList labels{name(layout, s.param)};
        if (section == 1 && layout.cut && layout.cut->param == s.param)
            for (const RowCut& m : layout.cut->members)
                if (m.rank == slot.rank)
                    labels = QStringList{
                        QStringLiteral("%1 → rows %2").arg(name(layout, s.param), rowsText(m.rows)),
                        QStringLiteral("→ rows %1").arg(rowsText(m.rows)), rowsText(m.rows)};
        scene.shapes.push_back({BufferShape::Payload, QRectF(a, y, std::max(b - a, 1.0), h),
                                s.param, slot.rank, section, labels, tip});
        if (s.padding > 0) {
            const double w = std::max(e - b, kMinPadding);
            scene.shapes.push_back({BufferShape::Padding, QRectF(e - w, y, w, h), s.param,
                                    slot.rank, section, QStringList(), tip});
        }
    }
}

double addTitle(BufferScene& scene, const BufferLayout& layout, double width) {
    const QString ranks = [&] {
        QStringList r;
        for (int x : layout.groupRanks) r << QString::number(x);
        return r.join(QStringLiteral(", "));
    }();
    scene.texts.push_back(
        {QRectF(kMargin, 6, width, 20),
         QStringLiteral("%1 (%2) · collective %3 · %4 run")
             .arg(QString::fromStdString(layout.op), QString::fromStdString(layout.phase),
                  QString::fromStdString(collectiveId(layout.seq)),
                  QString::fromStdString(layout.mode)),
         true});
    const QString where = layout.exchange ? QStringLiteral("mesh %1, shard group flattened")
                                                .arg(QString::fromStdString(layout.mesh))
                                          : QStringLiteral("mesh %1, dim %2")
                                                .arg(QString::fromStdString(layout.mesh))
                                                .arg(layout.meshDim);
    scene.texts.push_back(
        {QRectF(kMargin, 26, width, 18), QStringLiteral("group %1 · batch %2 · %3 · ranks %4")
                                             .arg(layout.group)
                                             .arg(layout.batch)
                                             .arg(where, ranks)});
    return 54;
}

double addSend(BufferScene& scene, const BufferLayout& layout, const ByteScale& scale, double y) {
    scene.texts.push_back(
        {QRectF(kMargin, y, scale.x1 - kMargin, kHeader),
         (layout.phase == "gather" ? QStringLiteral("Send buffer packed by rank %1 · %2")
                                   : QStringLiteral("Fused buffer as rank %1 holds it · %2"))
             .arg(layout.rank)
             .arg(runBytes(layout, layout.send.slotBytes)),
         true});
    y += kHeader + 2;
    scene.texts.push_back({QRectF(kMargin, y, kLabelWidth - 6, kSendHeight),
                           QStringLiteral("rank %1").arg(layout.rank)});
    addSlot(scene, layout, layout.send, scale, y, kSendHeight, 0, -1);
    y += kSendHeight + 2;
    // The byte offset under every segment start, and the slot's end, each as
    // wide as its text (a fixed 60 px cut "1,041,424" to "1,041,4...") and
    // none over the one before.
    const QFontMetricsF metrics(QGuiApplication::font());
    double lastRight = -1e9;
    auto tick = [&](int64_t b) {
        const double x = scale.at(b);
        const QString text = QLocale(QLocale::English).toString(qint64(b));
        const double half = metrics.horizontalAdvance(text) / 2 + 4;
        if (x - half < lastRight) return;
        scene.texts.push_back({QRectF(x - half, y, 2 * half, 14), text, false,
                               int(Qt::AlignHCenter | Qt::AlignVCenter)});
        lastRight = x + half;
    };
    for (const auto& s : layout.send.segments) tick(s.offset);
    tick(layout.send.slotBytes);
    return y + 16;
}

double addSlots(BufferScene& scene, const BufferLayout& layout, const ByteScale& scale, double y,
                double rowHeight) {
    const int64_t slot = layout.widestSlot();
    const bool gather = layout.phase == "gather";
    const QString heading =
        gather ? QStringLiteral("Gathered buffer, rank-major: %1 slots × %2 = %3")
                     .arg(layout.memberSlots.size())
                     .arg(bytes(slot), runBytes(layout, slot * int64_t(layout.memberSlots.size())))
               : QStringLiteral("Broadcast buffer: every member of the group ends with these %1")
                     .arg(runBytes(layout, slot));
    scene.texts.push_back({QRectF(kMargin, y, scale.x1 - kMargin, kHeader), heading, true});
    y += kHeader + 2;
    for (size_t q = 0; q < layout.memberSlots.size(); ++q) {
        const SlotRow& row = layout.memberSlots[q];
        scene.texts.push_back({QRectF(kMargin, y, kLabelWidth - 6, rowHeight - 2),
                               row.segments.empty()
                                   ? QStringLiteral("rank %1 (no event)").arg(row.rank)
                                   : QStringLiteral("rank %1").arg(row.rank)});
        addSlot(scene, layout, row, scale, y, rowHeight - 3, 1,
                gather ? int64_t(q) * slot : int64_t(-1));
        y += rowHeight;
    }
    return y;
}

// The cut: the target piece along the gathered tensor dim, each member's rows
// where they land, linked to the member's segment in the gathered buffer.
double addCut(BufferScene& scene, const BufferLayout& layout, const ByteScale& scale, double y) {
    const TensorCut& cut = *layout.cut;
    if (cut.target.empty()) return y;
    int64_t lo = cut.target.front().begin, hi = cut.target.front().end;
    for (const auto& r : cut.target) lo = std::min(lo, r.begin), hi = std::max(hi, r.end);
    scene.texts.push_back(
        {QRectF(kMargin, y, scale.x1 - kMargin, kHeader),
         QStringLiteral("%1 cut out: slot → rows %2 of tensor dim %3%4%5")
             .arg(name(layout, cut.param), rowsText(cut.target))
             .arg(cut.tensorDim)
             // A shrunk run's rows are its tensor's: "rows 0–127" of a
             // 5,120-row weight read as the real weight's first rows.
             .arg(layout.shrunk() ? QStringLiteral(" (the shrunk run's rows, each dim about 1/%1 "
                                                   "of the real one)")
                                        .arg(layout.shrinkFactor)
                                  : QString())
             .arg(layout.mode == "reference" ? QStringLiteral(" (the right cut; the reference "
                                                              "concatenates the slots rank-major)")
                                             : QString()),
         true});
    y += kHeader + 2;
    const double linkTop = y;  // the links fan out under the heading
    y += kLinkZone;
    const double h = kCutHeight;
    auto xAt = [&](int64_t i) {
        return scale.x0 +
               (scale.x1 - scale.x0) * double(i - lo) / double(std::max<int64_t>(hi - lo, 1));
    };
    scene.texts.push_back({QRectF(kMargin, y, kLabelWidth - 6, h), QStringLiteral("rows")});
    const size_t n = cut.members.size();
    for (size_t q = 0; q < n; ++q) {
        const RowCut& member = cut.members[q];
        // A copy, not a pointer: the shapes pushed below may move the vector.
        std::optional<QRectF> from;
        for (const auto& s : scene.shapes)
            if (s.section == 1 && s.kind == BufferShape::Payload && s.rank == member.rank &&
                s.param == cut.param)
                from = s.rect;
        for (const auto& r : member.rows) {
            const QRectF rect(xAt(r.begin), y, std::max(xAt(r.end) - xAt(r.begin), 2.0), h);
            const QStringList labels{
                QStringLiteral("rank %1 · rows %2").arg(member.rank).arg(rowsText({r})),
                QStringLiteral("rank %1 · %2").arg(member.rank).arg(rowsText({r})),
                QStringLiteral("rank %1").arg(member.rank), QString::number(member.rank)};
            const QString tip =
                QStringLiteral(
                    "rows %1 of dim %2 come from rank %3's slot (mesh coordinate %4),\n"
                    "bytes %5–%6 of that slot; the rank holds rows %7")
                    .arg(rowsText({r}))
                    .arg(cut.tensorDim)
                    .arg(member.rank)
                    .arg(member.coordinate)
                    .arg(member.segment.offset)
                    .arg(member.segment.offset + member.segment.length - 1)
                    .arg(rowsText(member.rows));
            scene.shapes.push_back(
                {BufferShape::Rows, rect, cut.param, member.rank, 2, labels, tip});
            if (from) {  // under the heading, member q's point along its segment
                const double x = from->left() + from->width() * (double(q) + 0.5) / double(n);
                scene.links.push_back(QLineF(x, linkTop, rect.center().x(), rect.top()));
            }
        }
    }
    y += h + 2;
    for (int64_t b : {lo, hi}) {
        const double x = xAt(b);
        scene.texts.push_back({QRectF(x - 40, y, 80, 14), QString::number(b), false,
                               int(Qt::AlignHCenter | Qt::AlignVCenter)});
    }
    return y + 16;
}

// The all-to-all strategy's buffers (exchange_layout.h): what the rank packs
// for each peer and what it gets from each, one block per peer.
QString exchangeTip(const BufferLayout& layout, const BufferSegment& s, const PeerBlock& block,
                    bool sending) {
    const bool gather = layout.phase == "gather";
    const QString what =
        gather
            ? QStringLiteral("rank %1's piece").arg(sending ? layout.rank : block.rank)
            : QStringLiteral("rank %1's fp32 update slice").arg(sending ? block.rank : layout.rank);
    return QStringLiteral("%1 · %2\n%3 rank %4 · offset %5 · length %6 · padding %7")
        .arg(name(layout, s.param), what,
             sending ? QStringLiteral("sent to") : QStringLiteral("received from"))
        .arg(block.rank)
        .arg(bytes(s.offset), bytes(s.length), bytes(s.padding));
}

// A block's peer above it, as long as the block's width allows (about 7
// pixels a character): "to rank 17", "→ 17", "17".
QString peerLabel(int peer, int rank, bool sending, double width) {
    const QString to = sending ? QStringLiteral("to") : QStringLiteral("from");
    const QString arrow = sending ? QStringLiteral("→") : QStringLiteral("←");
    const QStringList labels{peer == rank
                                 ? QStringLiteral("%1 rank %2 (itself: stays)").arg(to).arg(peer)
                                 : QStringLiteral("%1 rank %2").arg(to).arg(peer),
                             peer == rank ? QStringLiteral("%1 %2 (stays)").arg(arrow).arg(peer)
                                          : QStringLiteral("%1 %2").arg(arrow).arg(peer)};
    for (const QString& label : labels)
        if (double(label.size()) * 7 <= width) return label;
    return QString::number(peer);
}

double addExchangeBuffer(BufferScene& scene, const BufferLayout& layout, const ByteScale& scale,
                         double y, bool sending) {
    const ExchangeLayout& x = *layout.exchange;
    const std::vector<PeerBlock>& blocks = sending ? x.send : x.recv;
    int peers = 0;
    bool self = false;
    for (const PeerBlock& b : blocks) {
        peers += b.bytes > 0 && b.rank != layout.rank;
        self = self || (b.bytes > 0 && b.rank == layout.rank);
    }
    const QString own = self ? QStringLiteral(" and its own (it stays)") : QString();
    const QString peersText =
        peers == 1 ? QStringLiteral("1 peer") : QStringLiteral("%1 peers").arg(peers);
    const QString heading =
        sending ? QStringLiteral("Send buffer of rank %1 · %2 · a block for each of %3%4%5")
                      .arg(layout.rank)
                      .arg(runBytes(layout, x.sendBytes()))
                      .arg(peersText)
                      .arg(own)
                      .arg(x.sendFromTrace ? QString()
                                           : QStringLiteral(" (laid out as the runner does)"))
                : QStringLiteral("Receive buffer of rank %1 · %2 · a block from each of %3%4")
                      .arg(layout.rank)
                      .arg(runBytes(layout, x.recvBytes()))
                      .arg(peersText)
                      .arg(own);
    scene.texts.push_back({QRectF(kMargin, y, scale.x1 - kMargin, kHeader), heading, true});
    y += kHeader + 2;
    constexpr double kPeerLine = 16;
    scene.texts.push_back({QRectF(kMargin, y + kPeerLine, kLabelWidth - 6, kSendHeight),
                           sending ? QStringLiteral("rank %1 →").arg(layout.rank)
                                   : QStringLiteral("→ rank %1").arg(layout.rank)});
    for (const PeerBlock& block : blocks) {
        if (block.bytes <= 0) continue;
        const double a = scale.at(block.offset), b = scale.at(block.offset + block.bytes);
        const QRectF rect(a, y + kPeerLine, std::max(b - a, 2.0), kSendHeight);
        const QString peer = (block.rank == layout.rank ? QStringLiteral("rank %1 (itself: stays)")
                                                        : QStringLiteral("rank %1"))
                                 .arg(block.rank);
        scene.texts.push_back({QRectF(a + 2, y, std::max(b - a - 4, 1.0), kPeerLine),
                               peerLabel(block.rank, layout.rank, sending, b - a - 4)});
        scene.shapes.push_back({BufferShape::Block, rect, -1, block.rank, sending ? 0 : 1,
                                QStringList(),
                                QStringLiteral("%1 %2: %3")
                                    .arg(sending ? QStringLiteral("to") : QStringLiteral("from"),
                                         peer, runBytes(layout, block.bytes))});
        for (const BufferSegment& s : block.segments) {
            const double sa = scale.at(s.offset), sb = scale.at(s.offset + s.length);
            const double se = scale.at(s.offset + s.length + s.padding);
            const QString tip = exchangeTip(layout, s, block, sending);
            const QRectF payload(sa, rect.top() + 3, std::max(sb - sa, 1.0), rect.height() - 6);
            scene.shapes.push_back({BufferShape::Payload, payload, s.param, block.rank,
                                    sending ? 0 : 1, QStringList{name(layout, s.param)}, tip});
            if (s.padding > 0) {
                const double w = std::max(se - sb, kMinPadding);
                scene.shapes.push_back({BufferShape::Padding,
                                        QRectF(se - w, payload.top(), w, payload.height()), s.param,
                                        block.rank, sending ? 0 : 1, QStringList(), tip});
            }
        }
    }
    return y + kPeerLine + kSendHeight + 4;
}

// Who ends with what: the difference from the all-gather, in one line.
void addExchangeNote(BufferScene& scene, const BufferLayout& layout, const QRectF& line) {
    scene.texts.push_back(
        {line, layout.phase == "gather"
                   ? QStringLiteral("Each member sends the rank computing a param only its own "
                                    "piece of it; rank %1 assembles the full matrices of the "
                                    "params it computes from its receive buffer, and no other.")
                         .arg(layout.rank)
                   : QStringLiteral("Each computing rank sends each member back only its fp32 "
                                    "slice of the update; rank %1 applies the slices it "
                                    "receives to its own shards.")
                         .arg(layout.rank)});
}

// The legend's column on the right, the byte scale of the buffers left of
// it, and the title: what every scene starts with; returns the scale and the
// y under the title.
std::pair<ByteScale, double> startScene(BufferScene& scene, const BufferLayout& layout,
                                        const QSize& size) {
    const double legendWidth = std::min(280.0, size.width() * 0.28);
    const double right = size.width() - kMargin - legendWidth - kGap;
    scene.legend = QRectF(right + kGap, 54, legendWidth, size.height() - 54 - kMargin);
    const ByteScale scale{kMargin + kLabelWidth, right, std::max<int64_t>(layout.widestSlot(), 1)};
    return {scale, addTitle(scene, layout, size.width() - 2 * kMargin)};
}

BufferScene buildExchangeScene(const BufferLayout& layout, const QSize& size) {
    BufferScene scene;
    auto [scale, y] = startScene(scene, layout, size);
    y = addExchangeBuffer(scene, layout, scale, y, true) + kGap;
    y = addExchangeBuffer(scene, layout, scale, y, false) + kGap;
    addExchangeNote(scene, layout, QRectF(kMargin, y, scale.x1 - kMargin, kHeader));
    return scene;
}

bool hasRealSizeLine(const BufferLayout& layout) {
    return layout.shrunk() && layout.realRatio.has_value();
}

// What the buffer costs in padding, summed over the members' recorded segments.
void addTotals(BufferScene& scene, const BufferLayout& layout, const QRectF& line) {
    int64_t payload = 0, padding = 0;
    for (const auto& slot : layout.memberSlots)
        for (const auto& s : slot.segments) payload += s.length, padding += s.padding;
    if (payload + padding == 0) return;
    const double share = 100.0 * double(padding) / double(payload + padding);
    QString text = QStringLiteral("All %1 slots%2: %3 payload, %4 alignment padding (%5%)")
                       .arg(layout.memberSlots.size())
                       .arg(layout.shrunk() ? QStringLiteral(" of the shrunk run") : QString())
                       .arg(bytes(payload), bytes(padding))
                       .arg(share, 0, 'f', 1);
    scene.texts.push_back({line, text});
    // Padding is per segment, not per byte: at the real shapes it stays
    // about what it is while the payload grows (run/real_size.h). A line of
    // its own: after the totals it was cut off at a report picture's width.
    if (hasRealSizeLine(layout)) {
        const double real = double(payload + padding) * *layout.realRatio - double(padding);
        scene.texts.push_back(
            {line.translated(0, line.height()),
             QStringLiteral("At real size ≈ %1 payload, padding ≈ %2%")
                 .arg(QString::fromStdString(humanBytes(real)))
                 .arg(100.0 * double(padding) / (real + double(padding)), 0, 'g', 2)});
    }
}

}  // namespace

QColor bufferParamColor(int position) {
    static const QColor colors[] = {{0x4e, 0x79, 0xa7}, {0xf2, 0x8e, 0x2b}, {0x59, 0xa1, 0x4f},
                                    {0xb0, 0x7a, 0xa1}, {0xed, 0xc9, 0x48}, {0x76, 0xb7, 0xb2},
                                    {0xe1, 0x57, 0x59}, {0x9c, 0x75, 0x5f}, {0xff, 0x9d, 0xa7},
                                    {0x8c, 0xd1, 0x7d}};
    return position < 0 ? QColor(0xb8, 0xb8, 0xbe) : colors[position % 10];
}

QColor bufferPaddingBase() {
    return QColor(0xf6, 0xf6, 0xf6);
}
QColor bufferHatchColor() {
    return QColor(0x60, 0x60, 0x60);
}

namespace {

// A shrunk run's sizes say "X in the shrunk run (≈ Y at real size)": at a
// report picture's width a heading with one was cut before its real size
// (a 70B model's gathered buffer). Shorter wordings keep both numbers.
void addShorterWordings(BufferScene& scene) {
    const std::pair<QString, QString> steps[] = {
        {QStringLiteral(" in the shrunk run (≈ "), QStringLiteral(" shrunk (≈ ")},
        {QStringLiteral(" at real size)"), QStringLiteral(" real)")},
        {QStringLiteral("Gathered buffer, rank-major: "), QStringLiteral("Gathered, rank-major: ")},
        {QStringLiteral(" slots × "), QStringLiteral(" × ")},
        {QStringLiteral("Broadcast buffer: every member of the group ends with these "),
         QStringLiteral("Broadcast buffer, on every member: ")},
    };
    for (BufferText& text : scene.texts) {
        QString shorter = text.text;
        for (const auto& [from, to] : steps) {
            if (!shorter.contains(from)) continue;
            shorter.replace(from, to);
            text.shorter << shorter;
        }
    }
}

}  // namespace

BufferScene buildBufferScene(const BufferLayout& layout, const QSize& size) {
    if (layout.exchange) {
        BufferScene scene = buildExchangeScene(layout, size);
        addShorterWordings(scene);
        return scene;
    }
    BufferScene scene;
    auto [scale, y] = startScene(scene, layout, size);
    y = addSend(scene, layout, scale, y) + kGap;
    const bool cut = layout.cut && !layout.cut->target.empty();
    const double reserve = (cut ? kGap + kHeader + 2 + kLinkZone + kCutHeight + 2 + 16 : 0) + kGap +
                           kHeader + (hasRealSizeLine(layout) ? kHeader : 0);
    const double room = size.height() - kMargin - y - kHeader - 2 - reserve;
    const double rowHeight =
        std::clamp(room / double(std::max<size_t>(layout.memberSlots.size(), 1)), 10.0, 64.0);
    const double gridBottom = addSlots(scene, layout, scale, y, rowHeight);
    y = cut ? addCut(scene, layout, scale, gridBottom + kGap) : gridBottom;
    addTotals(scene, layout, QRectF(kMargin, y + kGap, scale.x1 - kMargin, kHeader));
    addShorterWordings(scene);
    return scene;
}

}  // namespace hsdp
