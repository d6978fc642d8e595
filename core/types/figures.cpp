// SPDX-License-Identifier: Apache-2.0
#include "types/figures.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace hsdp {

std::string humanBytes(double bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    while (bytes >= 1024 && u < 5) {
        bytes /= 1024;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
    return buf;
}

std::string groupedCount(int64_t count) {
    // Built forwards, a comma before each group of three (GCC 12's -Wrestrict
    // misfires on inserting into the string).
    const std::string digits = std::to_string(count < 0 ? -count : count);
    std::string out = count < 0 ? "-" : "";
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::string exactBytes(int64_t bytes) {
    return groupedCount(bytes) + " B";
}

// Three significant figures ("0.0336 s", "4.91 s", "12.3 s", "123 s"): a
// connect time of 34 ms no longer reads "0.03 s" beside a wall time of "4.91 s".
namespace {

// `value` with 3 significant figures and `unit`; 100 and more without decimals.
std::string threeSignificant(double value, const char* unit) {
    char buf[48];
    if (!(value > 0) || value >= 100) {
        std::snprintf(buf, sizeof buf, "%.0f %s", std::max(0.0, value), unit);
        return buf;
    }
    const int exponent = static_cast<int>(std::floor(std::log10(value)));
    int decimals = 2 - exponent;
    // 9.996 rounds to "10.0", not "10.00".
    if (std::round(value * std::pow(10.0, decimals)) >= std::pow(10.0, decimals + exponent + 1))
        --decimals;
    std::snprintf(buf, sizeof buf, "%.*f %s", std::max(0, decimals), value, unit);
    return buf;
}

}  // namespace

// Three significant figures, as times: "3350 GB/s", "0.0160 GB/s", never
// "3350.000 GB/s" (a measured or datasheet rate has no more).
std::string bandwidthText(double bytesPerSecond) {
    return threeSignificant(bytesPerSecond / 1e9, "GB/s");
}

std::string secondsText(double seconds) {
    return threeSignificant(seconds, "s");
}

std::string durationText(double seconds) {
    // Below half a nanosecond no clock or model means anything: the residue
    // of summing and subtracting times ("waiting 0.000183 µs") reads as 0.
    if (!(seconds >= 0.5e-9)) return "0 s";
    if (seconds >= 1) return threeSignificant(seconds, "s");
    if (seconds >= 1e-3) return threeSignificant(seconds * 1e3, "ms");
    if (seconds >= 1e-6) return threeSignificant(seconds * 1e6, "µs");
    return threeSignificant(seconds * 1e9, "ns");
}

std::string wallTimeText(double seconds) {
    return secondsText(seconds) + " wall";
}

std::string summedTimeText(double seconds) {
    return secondsText(seconds) + " summed over collectives";
}

std::string groupRanksText(const std::vector<int>& ranks) {
    // Runs of three or more consecutive ranks read as "a..b", so a 64-rank
    // world is "[0..63]" and a strided group stays explicit.
    std::string text = "[";
    for (size_t i = 0; i < ranks.size();) {
        size_t end = i;
        while (end + 1 < ranks.size() && ranks[end + 1] == ranks[end] + 1) ++end;
        if (i > 0) text += ",";
        if (end - i >= 2) {
            text += std::to_string(ranks[i]) + ".." + std::to_string(ranks[end]);
            i = end + 1;
        } else {
            text += std::to_string(ranks[i]);
            ++i;
        }
    }
    return text + "]";
}

namespace {

size_t characters(const std::string& text) {
    // Every byte but a UTF-8 continuation byte (10xxxxxx) starts a character.
    return size_t(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

}  // namespace

std::string padRight(std::string text, size_t columns) {
    const size_t n = characters(text);
    if (n < columns) text.append(columns - n, ' ');
    return text;
}

std::string padLeft(std::string text, size_t columns) {
    const size_t n = characters(text);
    return n < columns ? std::string(columns - n, ' ') + text : text;
}

std::string ratioText(double ratio) {
    char text[32];
    if (ratio >= 100)
        std::snprintf(text, sizeof text, "%.0f×", ratio);
    else
        std::snprintf(text, sizeof text, "%.2g×", ratio);
    return text;
}

std::string collectiveId(int64_t seq) {
    return "seq " + std::to_string(seq);
}

std::string runBytesText(double runBytes, bool shrunk, std::optional<double> realBytes) {
    std::string text = humanBytes(runBytes);
    if (!shrunk) return text;
    text += " in the shrunk run";
    if (realBytes && *realBytes > 0) text += " (≈ " + humanBytes(*realBytes) + " at real size)";
    return text;
}

std::string percentText(double fraction) {
    if (!std::isfinite(fraction)) return "inf";
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %%", 100 * fraction);
    return text;
}

std::string signedPercentText(double fraction) {
    if (!std::isfinite(fraction)) return "inf";
    char text[32];
    std::snprintf(text, sizeof text, "%+.1f %%", 100 * fraction);
    return text;
}

}  // namespace hsdp
