// SPDX-License-Identifier: Apache-2.0
#include "verification/verification_model.h"

#include <QBrush>
#include <QColor>

#include "derived/plan/plan_index.h"
#include "derived/run/run_status_text.h"

namespace hsdp {

namespace {

constexpr quintptr kSectionId = 0;
constexpr quintptr kFirstMismatchId = 4;  // ids 1..3: an item row of section id - 1

QString text(std::string_view value) {
    return QString::fromUtf8(value.data(), static_cast<qsizetype>(value.size()));
}

enum class Tone { Good, Bad, Quiet, Warn };

QColor toneColor(Tone tone) {
    switch (tone) {
        case Tone::Good:
            return QColor(0x1a, 0x7f, 0x37);
        case Tone::Bad:
            return QColor(0xc0, 0x1c, 0x28);
        case Tone::Warn:
            return QColor(0xa8, 0x5a, 0x00);
        case Tone::Quiet:
            break;
    }
    return QColor(0x77, 0x77, 0x77);
}

// A translucent tint, readable over light and dark palettes alike.
QBrush failedBackground() {
    return QBrush(QColor(0xc0, 0x1c, 0x28, 48));
}

QString paramVerdict(const ParamRunResult& p) {
    if (paramMismatched(p)) return QStringLiteral("mismatch");
    if (p.gather == GatherVerdict::Error || p.step == CheckVerdict::Error)
        return QStringLiteral("error");
    if (p.replicas == ReplicaVerdict::Diverged) return QStringLiteral("diverged");
    if (paramNotReached(p)) return QStringLiteral("not reached");
    return QStringLiteral("exact");
}

Tone verdictTone(const QString& verdict) {
    if (verdict == QLatin1String("exact")) return Tone::Good;
    if (verdict == QLatin1String("not reached")) return Tone::Quiet;
    if (verdict == QLatin1String("not run")) return Tone::Warn;
    return Tone::Bad;
}

bool transitionFailed(const TpRunResult& t) {
    return t.result == CheckVerdict::Mismatch || t.result == CheckVerdict::Error;
}

// The roles every kind of row answers the same way from its verdict.
QVariant verdictRole(const QString& verdict, bool failed, int column, int role) {
    switch (role) {
        case Qt::ForegroundRole:
            return column == VerificationModel::VerdictColumn
                       ? QVariant(QBrush(toneColor(verdictTone(verdict))))
                       : QVariant();
        case Qt::BackgroundRole:
            return failed ? QVariant(failedBackground()) : QVariant();
        case VerificationModel::FailedRole:
            return failed;
    }
    return {};
}

}  // namespace

VerificationModel::VerificationModel(QObject* parent) : QAbstractItemModel(parent) {}

void VerificationModel::setRun(const RunData& run) {
    beginResetModel();
    run_ = run;
    endResetModel();
}

QModelIndex VerificationModel::sectionIndex(Section section) const {
    return index(section, 0);
}

int VerificationModel::itemCount(int section) const {
    if (!run_.run) return 0;
    switch (section) {
        case ParamsSection:
            return static_cast<int>(run_.run->params.size());
        case TransitionsSection:
            return static_cast<int>(run_.run->tpTransitions.size());
        case NotRunSection:
            return static_cast<int>(run_.run->notRun.size());
    }
    return 0;
}

const std::vector<Mismatch>* VerificationModel::mismatches(int section, int item) const {
    if (section == ParamsSection) return &run_.run->params[static_cast<size_t>(item)].mismatches;
    if (section == TransitionsSection)
        return &run_.run->tpTransitions[static_cast<size_t>(item)].mismatches;
    return nullptr;
}

VerificationModel::Place VerificationModel::place(const QModelIndex& index) const {
    const quintptr id = index.internalId();
    if (id == kSectionId) return {index.row(), -1, -1};
    if (id < kFirstMismatchId) return {static_cast<int>(id) - 1, index.row(), -1};
    return {static_cast<int>(id & 3), static_cast<int>(id >> 2) - 1, index.row()};
}

QModelIndex VerificationModel::index(int row, int column, const QModelIndex& parent) const {
    if (!hasIndex(row, column, parent)) return {};
    if (!parent.isValid()) return createIndex(row, column, kSectionId);
    Place p = place(parent);
    if (p.item < 0) return createIndex(row, column, static_cast<quintptr>(p.section) + 1);
    return createIndex(row, column,
                       (static_cast<quintptr>(p.item + 1) << 2) | static_cast<quintptr>(p.section));
}

QModelIndex VerificationModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == kSectionId) return {};
    Place p = place(child);
    if (p.mismatch < 0) return createIndex(p.section, 0, kSectionId);
    return createIndex(p.item, 0, static_cast<quintptr>(p.section) + 1);
}

int VerificationModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid()) return run_.run ? SectionCount : 0;
    if (parent.column() != 0) return 0;
    Place p = place(parent);
    if (p.item < 0) return itemCount(p.section);
    if (p.mismatch >= 0) return 0;
    const std::vector<Mismatch>* list = mismatches(p.section, p.item);
    return list ? static_cast<int>(list->size()) : 0;
}

int VerificationModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant VerificationModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !run_.run) return {};
    const Place p = place(index);
    const int column = index.column();
    if (p.item < 0) return sectionData(p.section, column, role);
    const auto item = static_cast<size_t>(p.item);
    if (p.mismatch >= 0)
        return mismatchData(p, (*mismatches(p.section, p.item))[static_cast<size_t>(p.mismatch)],
                            column, role);
    switch (p.section) {
        case ParamsSection:
            return paramData(run_.run->params[item], column, role);
        case TransitionsSection:
            return transitionData(run_.run->tpTransitions[item], column, role);
        case NotRunSection:
            return notRunData(run_.run->notRun[item], column, role);
    }
    return {};
}

QVariant VerificationModel::sectionData(int section, int column, int role) const {
    static const char* const titles[] = {"Parameters", "TP transitions", "Not run (rejected)"};
    if (role == SectionRole) return section;
    if (role == ParamRole || role == GroupRole || role == BatchRole || role == TransitionRole ||
        role == RankRole)
        return -1;
    if (role == FilterRole) return QString();
    if (role != Qt::DisplayRole || column != NameColumn) return {};
    return tr("%1 (%2)").arg(tr(titles[section])).arg(itemCount(section));
}

// Where the param sat in the plan that ran: what activating its row selects.
QVariant VerificationModel::paramPlace(int param, int role) const {
    if (role == ParamRole) return param;
    const auto& places = run_.plan.index->params;
    if (param < 0 || param >= static_cast<int>(places.size())) return -1;
    return role == GroupRole ? places[static_cast<size_t>(param)].group
                             : places[static_cast<size_t>(param)].batch;
}

QVariant VerificationModel::paramData(const ParamRunResult& param, int column, int role) const {
    const QString verdict = paramVerdict(param);
    const bool failed = paramFailed(param);
    switch (role) {
        case Qt::DisplayRole:
            switch (column) {
                case NameColumn:
                    return text(param.name);
                case VerdictColumn:
                    return verdict;
                case GatherColumn:
                    return gatherVerdictText(param.gather);
                case StepColumn:
                    return checkVerdictText(param.step);
                case ReplicasColumn:
                    return replicaVerdictText(param);
                case DetailColumn:
                    return text(param.detail);
            }
            return {};
        case Qt::ToolTipRole:
            return column == DetailColumn && !param.detail.empty() ? text(param.detail)
                                                                   : QVariant();
        case FilterRole:
            return (text(param.name) + QLatin1Char(' ') + verdict).toLower();
        case ParamRole:
        case GroupRole:
        case BatchRole:
            return paramPlace(param.index, role);
        case TransitionRole:
        case RankRole:
            return -1;
        case SectionRole:
            return ParamsSection;
    }
    return verdictRole(verdict, failed, column, role);
}

QVariant VerificationModel::transitionData(const TpRunResult& transition, int column,
                                           int role) const {
    const QString verdict = checkVerdictText(transition.result);
    switch (role) {
        case Qt::DisplayRole:
            switch (column) {
                case NameColumn:
                    return text(transition.name);
                case VerdictColumn:
                    return verdict;
                case PathColumn:
                    return text(transition.path);
                case DetailColumn:
                    return text(transition.detail);
            }
            return {};
        case Qt::ToolTipRole:
            return column == DetailColumn && !transition.detail.empty() ? text(transition.detail)
                                                                        : QVariant();
        case FilterRole:
            return (text(transition.name) + QStringLiteral(" tp ") + verdict).toLower();
        case TransitionRole:
            return transition.index;
        case ParamRole:
        case GroupRole:
        case BatchRole:
        case RankRole:
            return -1;
        case SectionRole:
            return TransitionsSection;
    }
    return verdictRole(verdict, transitionFailed(transition), column, role);
}

QVariant VerificationModel::notRunData(const NotRunParam& param, int column, int role) const {
    const QString verdict = QStringLiteral("not run");
    switch (role) {
        case Qt::DisplayRole:
            return column == NameColumn      ? QVariant(text(param.name))
                   : column == VerdictColumn ? QVariant(verdict)
                   : column == DetailColumn  ? QVariant(text(param.reason))
                                             : QVariant();
        case FilterRole:
            return (text(param.name) + QLatin1Char(' ') + verdict).toLower();
        case ParamRole:
        case GroupRole:
        case BatchRole:
            return paramPlace(param.index, role);
        case TransitionRole:
        case RankRole:
            return -1;
        case SectionRole:
            return NotRunSection;
    }
    return verdictRole(verdict, false, column, role);
}

QVariant VerificationModel::mismatchData(const Place& p, const Mismatch& mismatch, int column,
                                         int role) const {
    const QString verdict = QStringLiteral("mismatch");
    switch (role) {
        case Qt::DisplayRole:
            return column == NameColumn
                       ? QVariant(tr("rank %1 · %2").arg(mismatch.rank).arg(text(mismatch.what)))
                   : column == VerdictColumn ? QVariant(verdict)
                   : column == DetailColumn  ? QVariant(text(mismatch.text))
                                             : QVariant();
        case Qt::ToolTipRole:
            return column == DetailColumn ? QVariant(text(mismatch.text)) : QVariant();
        case FilterRole:
            return (verdict + QLatin1Char(' ') + text(mismatch.text)).toLower();
        case RankRole:
            return mismatch.rank;
        case SectionRole:
            return p.section;
        case ParamRole:
        case GroupRole:
        case BatchRole:
        case TransitionRole:
            // What its parameter or transition row selects.
            return data(createIndex(p.item, 0, static_cast<quintptr>(p.section) + 1), role);
    }
    return verdictRole(verdict, true, column, role);
}

QVariant VerificationModel::headerData(int section, Qt::Orientation orientation, int role) const {
    static const char* const titles[] = {"Name",     "Verdict", "Gather", "Step",
                                         "Replicas", "Path",    "Detail"};
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= ColumnCount)
        return {};
    return tr(titles[section]);
}

}  // namespace hsdp
