// SPDX-License-Identifier: Apache-2.0
#include "checkpoint/detail/natural_order.h"

namespace hsdp {

namespace {

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

// The digit run starting at `i`, without its leading zeros; `i` moves past it.
std::string_view digitRun(std::string_view s, size_t& i) {
    const size_t start = i;
    while (i < s.size() && isDigit(s[i])) ++i;
    std::string_view run = s.substr(start, i - start);
    while (run.size() > 1 && run.front() == '0') run.remove_prefix(1);
    return run;
}

}  // namespace

bool naturalLess(std::string_view a, std::string_view b) {
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (isDigit(a[i]) && isDigit(b[j])) {
            const size_t startA = i, startB = j;
            const std::string_view x = digitRun(a, i), y = digitRun(b, j);
            if (x.size() != y.size()) return x.size() < y.size();
            if (x != y) return x < y;
            if (i - startA != j - startB) return i - startA < j - startB;
            continue;
        }
        if (a[i] != b[j])
            return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

}  // namespace hsdp
