// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "derived/plan/edit_fields.h"

namespace hsdp {

class ScenarioDocument;

// Placements as the plan writes them ("R, SS(0,4), S(0)"): the table's
// display; the document's own words are its tooltip and what an edit starts from.
QString compactPlacements(QString text);

// The `params` entries of the edited document as a table: name (as written,
// "{i}" included), repetitions, and the editable shape, dtype and placements.
// setData() writes to the document (one undoable step per cell edit); rows the
// reader's last error points into are marked with its message, and so is a
// cell whose text is no value (strictly parsed, field_text.h).
class ParamEntriesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Repeats, Shape, DType, Placements, ColumnCount };

    explicit ParamEntriesModel(ScenarioDocument* document, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;

    // The value's JSON pointer for an editable cell, "" otherwise.
    QString pointerOf(const QModelIndex& index) const;
    // Marks the row whose entry contains `pointer` (the reader's error path);
    // an empty pointer clears the mark. Returns the marked row or -1.
    int markError(const QString& pointer, const QString& message);
    // The message of the cell whose last text was no value ("" if none). Such
    // a cell stays marked, whatever the reader says, until the document
    // changes again; the document keeps its value from before the edit.
    QString textError() const { return textError_; }

signals:
    void textErrorChanged();

private:
    void rebuild();
    void onValueChanged(const QString& pointer);
    void setTextError(int row, int column, const QString& message);
    bool isMarked(const QModelIndex& index) const;

    ScenarioDocument* document_;
    std::vector<ParamEntry> entries_;
    int errorRow_ = -1;
    int errorColumn_ = -1;
    QString errorMessage_;
    int textErrorRow_ = -1;
    int textErrorColumn_ = -1;
    QString textError_;
};

}  // namespace hsdp
