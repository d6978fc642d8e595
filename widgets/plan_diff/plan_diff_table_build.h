// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>

#include "cost/cost_diff.h"

// Internal to plan_change*.cpp: what the row builders share.

#include <QObject>
#include <QString>
#include <map>
#include <string>

#include "plan_diff/plan_diff_table.h"

namespace hsdp::change_detail {

// The two results and lookups into the shown one (the rows carry its positions).
struct Context {
    const PlanResult& before;
    const PlanResult& after;
    CurrentSide current;
    std::map<std::string, int> paramByName;       // first param of a name
    std::map<int, int> groupPositionById;         // Group::id -> Plan::groups position
    std::map<std::string, int> transitionByName;  // first TP transition of a name

    Context(const PlanResult& before, const PlanResult& after, CurrentSide current);
    const PlanResult& shown() const { return current == CurrentSide::After ? after : before; }
    // The shown plan's position of the group with id `before` or `after`,
    // whichever belongs to the shown side; -1 if it is not there.
    int shownGroup(const std::optional<int>& before, const std::optional<int>& after) const;
    int paramNamed(const std::string& name) const;
    // Fills param, group and batch of `row` for the shown param `index` (-1: none).
    void placeParam(PlanDiffRow& row, int index) const;
};

QString text(const std::string& s);
QString coordText(const Coord& coord);
QString numberText(int64_t value);
QString optionalNumberText(const std::optional<int64_t>& value);  // "—" if absent
QString signedText(int64_t delta);                                // "+1,024", "−512", "0"
QString signedRatioText(double delta);                            // "+0.12", "−0.26"
// A row with its texts set and nothing to select.
PlanDiffRow textRow(const QString& item, const QString& what, const QString& before,
                    const QString& after, const QString& delta = {});
inline const QString kAbsent = QStringLiteral("—");

void addParamRows(const Context& ctx, const PlanDiff& diff, std::vector<PlanDiffRow>& rows);
void addLoadRows(const Context& ctx, const PlanDiff& diff, std::vector<PlanDiffRow>& rows);
void addImbalanceRows(const Context& ctx, const PlanDiff& diff, std::vector<PlanDiffRow>& rows);
void addDiagnosticRows(const Context& ctx, const std::vector<DiagnosticItem>& items, bool appeared,
                       std::vector<PlanDiffRow>& rows);
void addOtherRows(const PlanDiff& diff, std::vector<PlanDiffRow>& rows);
// plan_diff_table_cost.cpp: the prediction's change, when both plans have
// one on the same cluster.
std::optional<CostDiff> costChange(const PlanResult& before, const PlanResult& after);
void addCostRows(const CostDiff& cost, std::vector<PlanDiffRow>& rows);
QString costSummaryText(const CostDiff& cost);  // "" when neither figure changed

}  // namespace hsdp::change_detail
