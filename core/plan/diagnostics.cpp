// SPDX-License-Identifier: Apache-2.0
#include "plan/diagnostics.h"

#include <algorithm>

namespace hsdp {

namespace {

// A message stays readable for huge scenarios: the first few details, then a count.
constexpr size_t kMaxDetails = 6;

std::string composeMessage(const std::string& headline, const std::vector<std::string>& details) {
    std::string message = headline;
    if (details.empty()) return message;
    message += ": ";
    size_t shown = std::min(details.size(), kMaxDetails);
    for (size_t i = 0; i < shown; ++i) {
        if (i) message += "; ";
        message += details[i];
    }
    if (details.size() > shown)
        message += "; and " + std::to_string(details.size() - shown) + " more";
    return message;
}

void sortUnique(std::vector<int>& values) {
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
}

}  // namespace

void DiagnosticSink::report(Severity severity, std::string_view code, const std::string& headline,
                            const std::string& detail, std::vector<int> params,
                            std::vector<int> transitions) {
    auto it = position_.find(code);
    if (it == position_.end()) {
        Entry entry;
        entry.diagnostic.severity = severity;
        entry.diagnostic.code = std::string(code);
        entry.headline = headline;
        it = position_.emplace(std::string(code), entries_.size()).first;
        entries_.push_back(std::move(entry));
    }
    Entry& entry = entries_[it->second];
    if (!detail.empty()) entry.details.push_back(detail);
    auto& d = entry.diagnostic;
    d.params.insert(d.params.end(), params.begin(), params.end());
    d.transitions.insert(d.transitions.end(), transitions.begin(), transitions.end());
}

bool DiagnosticSink::has(std::string_view code) const {
    return position_.find(code) != position_.end();
}

std::vector<Diagnostic> DiagnosticSink::take() {
    std::vector<Diagnostic> out;
    out.reserve(entries_.size());
    for (auto& entry : entries_) {
        entry.diagnostic.message = composeMessage(entry.headline, entry.details);
        sortUnique(entry.diagnostic.params);
        sortUnique(entry.diagnostic.transitions);
        out.push_back(std::move(entry.diagnostic));
    }
    entries_.clear();
    position_.clear();
    return out;
}

}  // namespace hsdp
