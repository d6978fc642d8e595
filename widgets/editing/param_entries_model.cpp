// SPDX-License-Identifier: Apache-2.0
#include "editing/param_entries_model.h"

#include <QBrush>
#include <QColor>
#include <QRegularExpression>

#include "derived/plan/edit_error_text.h"
#include "derived/plan/scenario_document.h"

namespace hsdp {

namespace {

const char* keyOf(int column) {
    switch (column) {
        case ParamEntriesModel::Shape:
            return "shape";
        case ParamEntriesModel::DType:
            return "dtype";
        case ParamEntriesModel::Placements:
            return "placements";
        default:
            return nullptr;
    }
}

FieldKind kindOf(int column) {
    switch (column) {
        case ParamEntriesModel::Shape:
            return FieldKind::Integers;
        case ParamEntriesModel::DType:
            return FieldKind::DType;
        default:
            return FieldKind::Placements;
    }
}

}  // namespace

ParamEntriesModel::ParamEntriesModel(ScenarioDocument* document, QObject* parent)
    : QAbstractTableModel(parent), document_(document) {
    connect(document_, &ScenarioDocument::documentReset, this, &ParamEntriesModel::rebuild);
    connect(document_, &ScenarioDocument::valueChanged, this, &ParamEntriesModel::onValueChanged);
    rebuild();
}

void ParamEntriesModel::rebuild() {
    beginResetModel();
    entries_ = document_->isLoaded() ? paramEntries(document_->json()) : std::vector<ParamEntry>{};
    errorRow_ = -1;
    textErrorRow_ = -1;
    endResetModel();
    setTextError(-1, -1, {});
}

int ParamEntriesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(entries_.size());
}

int ParamEntriesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString ParamEntriesModel::pointerOf(const QModelIndex& index) const {
    const char* key = keyOf(index.column());
    if (!index.isValid() || !key) return {};
    return entries_[static_cast<size_t>(index.row())].pointer + QLatin1Char('/') +
           QLatin1String(key);
}

// "R, _StridedShard(dim=0, sf=4), Shard(0)" shown as the plan's "R, SS(0,4),
// S(0)": the long form took the whole table and left the names "…".
QString compactPlacements(QString text) {
    static const QRegularExpression strided(
        QStringLiteral("_?StridedShard\\(dim=(\\d+), *sf=(\\d+)\\)"));
    static const QRegularExpression shard(QStringLiteral("\\bShard\\((?:dim=)?(\\d+)\\)"));
    static const QRegularExpression replicate(QStringLiteral("\\bReplicate\\(\\)"));
    text.replace(strided, QStringLiteral("SS(\\1,\\2)"));
    text.replace(shard, QStringLiteral("S(\\1)"));
    text.replace(replicate, QStringLiteral("R"));
    return text;
}

QVariant ParamEntriesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const ParamEntry& entry = entries_[static_cast<size_t>(index.row())];
    const bool textMarked = index.row() == textErrorRow_ && index.column() == textErrorColumn_;
    if (role == Qt::BackgroundRole && isMarked(index)) return QBrush(QColor(0xf8, 0xd7, 0xda));
    if (role == Qt::ToolTipRole && isMarked(index)) return textMarked ? textError_ : errorMessage_;
    if (role == Qt::ToolTipRole && index.column() == Placements)  // the document's own words
        return fieldText(kindOf(index.column()), document_->value(pointerOf(index)));
    if (role != Qt::DisplayRole && role != Qt::EditRole) return {};
    switch (index.column()) {
        case Name:
            return entry.name;
        case Repeats:
            return role == Qt::EditRole ? QVariant(entry.repetitions)
                                        : QVariant(QStringLiteral("×%1").arg(entry.repetitions));
        default: {
            QString text = fieldText(kindOf(index.column()), document_->value(pointerOf(index)));
            if (index.column() != Placements || role != Qt::DisplayRole) return text;
            return text.isEmpty() ? tr("(plain tensor)") : compactPlacements(text);
        }
    }
}

QVariant ParamEntriesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"Name", "Repeats", "Shape", "Dtype", "Placements"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

bool ParamEntriesModel::isMarked(const QModelIndex& index) const {
    if (index.row() == textErrorRow_ && index.column() == textErrorColumn_) return true;
    return index.row() == errorRow_ && (errorColumn_ < 0 || errorColumn_ == index.column());
}

Qt::ItemFlags ParamEntriesModel::flags(const QModelIndex& index) const {
    Qt::ItemFlags flags = QAbstractTableModel::flags(index);
    return keyOf(index.column()) ? flags | Qt::ItemIsEditable : flags;
}

bool ParamEntriesModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !(flags(index) & Qt::ItemIsEditable)) return false;
    ParsedField parsed = parseFieldText(kindOf(index.column()), value.toString());
    if (!parsed.ok()) {
        // Typed one key at a time, "8192, two" read as [8192] at "8192": a
        // text that is no value leaves the cell's value from before the edit.
        document_->revertOpenEdit(pointerOf(index));
        setTextError(
            index.row(), index.column(),
            fieldLabel(document_->json(), pointerOf(index)) + QStringLiteral(": ") + parsed.error);
        return false;
    }
    // A plain tensor has no placements key: an empty cell keeps it one.
    if (index.column() == Placements && parsed.value && parsed.value->empty()) parsed.value.reset();
    const ParamEntry& entry = entries_[static_cast<size_t>(index.row())];
    document_->setValue(
        pointerOf(index), parsed.value,
        tr("Edit %1 of %2")
            .arg(headerData(index.column(), Qt::Horizontal, Qt::DisplayRole).toString().toLower(),
                 entry.name));
    return true;
}

void ParamEntriesModel::setTextError(int row, int column, const QString& message) {
    const int previous = textErrorRow_;
    const bool changed = message != textError_ || row != textErrorRow_;
    textErrorRow_ = row;
    textErrorColumn_ = column;
    textError_ = message;
    for (int r : {previous, row})
        if (r >= 0) emit dataChanged(index(r, 0), index(r, ColumnCount - 1));
    if (changed) emit textErrorChanged();
}

// Any change of the document (the next edit, an undo) ends a text error: the
// cell then shows a value again.
void ParamEntriesModel::onValueChanged(const QString& pointer) {
    if (textErrorRow_ >= 0) setTextError(-1, -1, {});
    for (size_t row = 0; row < entries_.size(); ++row)
        if (pointer.startsWith(entries_[row].pointer + QLatin1Char('/'))) {
            emit dataChanged(index(static_cast<int>(row), 0),
                             index(static_cast<int>(row), ColumnCount - 1));
            return;
        }
    // Not inside one entry: the list itself, a repeat block's count (a
    // restore of unsaved edits sets such values whole).
    if (pointer.isEmpty() || pointer == QLatin1String("/params") ||
        pointer.startsWith(QLatin1String("/params/")))
        rebuild();
}

int ParamEntriesModel::markError(const QString& pointer, const QString& message) {
    int previous = errorRow_;
    errorRow_ = -1;
    errorColumn_ = -1;
    errorMessage_ = message;
    for (size_t row = 0; row < entries_.size() && !pointer.isEmpty(); ++row) {
        const QString& at = entries_[row].pointer;
        if (pointer != at && !pointer.startsWith(at + QLatin1Char('/'))) continue;
        errorRow_ = static_cast<int>(row);
        for (int column = Shape; column < ColumnCount; ++column)
            if (pointer.startsWith(at + QLatin1Char('/') + QLatin1String(keyOf(column))))
                errorColumn_ = column;
        break;
    }
    for (int row : {previous, errorRow_})
        if (row >= 0) emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
    return errorRow_;
}

}  // namespace hsdp
