// SPDX-License-Identifier: Apache-2.0
#include "export/text_wrap.h"

#include <algorithm>
#include <sstream>

namespace hsdp {

namespace {

// Where to end the first piece of `line` (the index of the next piece's first
// character), or npos when it cannot be broken at all. A list
// separator wins over a plain space when it keeps the line at least 60% full.
size_t breakPoint(const std::string& line, size_t width, size_t minimum) {
    const size_t full = std::max(minimum, width * 3 / 5);
    for (const char* sep : {"; ", ", ", " "}) {
        const size_t len = std::string(sep).size();
        if (width < len) continue;
        const size_t at = line.rfind(sep, width - len);
        const size_t least = std::string(sep) == " " ? minimum : full;
        if (at != std::string::npos && at >= least) return at + len;
    }
    // A word longer than the width: keep it whole, break right after it.
    // (Past `minimum`, which is past the continuation indent: every break shortens the rest.)
    const size_t after = line.find(' ', std::max(width, minimum));
    return after == std::string::npos ? after : after + 1;
}

void wrapLine(std::string line, size_t width, std::ostringstream& out) {
    const size_t indent = std::min<size_t>(line.find_first_not_of(' '), 24);
    const std::string continuation(indent + 4, ' ');
    // Never break inside the line's own indentation or its first few words.
    const size_t minimum = indent + 12;
    while (line.size() > width) {
        const size_t at = breakPoint(line, width, minimum);
        if (at == std::string::npos) break;
        std::string head = line.substr(0, at);
        while (!head.empty() && head.back() == ' ') head.pop_back();
        out << head << "\n";
        line = continuation + line.substr(at);
    }
    out << line;
}

}  // namespace

std::string wrapText(const std::string& text, size_t width) {
    std::ostringstream out;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        const bool newline = end != std::string::npos;
        if (!newline) end = text.size();
        wrapLine(text.substr(start, end - start), width, out);
        if (newline) out << "\n";
        start = end + 1;
    }
    return out.str();
}

}  // namespace hsdp
