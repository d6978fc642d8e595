// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QFontMetrics>
#include <QHash>
#include <QString>
#include <vector>

namespace hsdp {

// The widest of many texts in one font, each with an offset (its indent).
// Shaping every text took the GUI thread 270 ms for the 12,000 rows of a
// large plan; so each is estimated from cached per-character advances, and
// only the widest estimates are shaped: kerning and ligatures move a width by
// a few pixels, far less than the gap to the candidates left out.
class WidestText {
public:
    explicit WidestText(const QFontMetrics& metrics) : metrics_(metrics) {}

    void add(const QString& text, int offset = 0);
    // The exact widest width (offset included) of the texts added; 0 if none.
    int width() const;

private:
    int estimate(const QString& text);

    struct Candidate {
        int estimate;
        QString text;
        int offset;
    };
    QFontMetrics metrics_;
    QHash<char16_t, int> advances_;
    std::vector<Candidate> candidates_;
};

}  // namespace hsdp
