// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QHash>
#include <QWidget>

#include "derived/plan/edit_fields.h"
#include "view/studio_view.h"

class QFormLayout;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class QVBoxLayout;

namespace hsdp {

class ParamEntriesModel;
class ScenarioDocument;

// The what-if panel: the mesh shapes, dim names and rank orders, the planning
// options and each param entry's shape, dtype and placements of the open
// scenario, editable. Every keystroke that gives a well-formed value is an
// edit of the ScenarioDocument (undoable; the window re-plans on it). A text
// that is not a value (a letter in a shape, "2,") leaves the field's value
// from before the edit in the document; it and a value the reader rejects are
// both marked on the field with a message naming the field; the plan on
// screen stays the last valid one.
class EditWidget : public QWidget, public StudioView {
    Q_OBJECT
public:
    explicit EditWidget(ScenarioDocument* document, QWidget* parent = nullptr);

    QWidget* widget() override { return this; }
    QList<ViewShot> screenshots() const override { return {}; }

    // Marks the field the reader's error points at (JSON pointer `path`; for
    // an edit, the field edited); a path that names no field marks the last
    // edited one. Returns the marked field's pointer ("" if none).
    QString markReaderError(const QString& path, const QString& message);
    void clearErrors();
    // The message of the field or cell whose text is no value, naming it
    // ("Mesh main · Shape: item 2, 'two', is not an integer"); "" if none.
    QString textError() const;

    // Puts the keyboard in the first field (the first mesh's shape), its text
    // selected: Edit ▸ Edit the scenario (F2), then Tab through the fields.
    void focusFirstField();

    // For tests and the benchmark: the editor of the value at `pointer`.
    QWidget* fieldEditor(const QString& pointer) const;
    QTableView* paramTable() const { return params_; }
    ParamEntriesModel* paramModel() const { return paramModel_; }
    QString markedField() const { return marked_; }

signals:
    // A field's text stopped or started being a value (message "" then).
    void textErrorChanged(const QString& message);

private:
    void rebuild();
    void addField(QFormLayout* form, const EditField& field);
    QWidget* createEditor(const EditField& field);
    void onTextEdited(const EditField& field, const QString& text);
    void showValue(const QString& pointer);
    void setMark(const QString& pointer, const QString& message);
    void setTextError(const QString& pointer, const QString& message);

    ScenarioDocument* document_;
    QVBoxLayout* fieldsLayout_ = nullptr;
    QWidget* fieldsBox_ = nullptr;
    QTableView* params_ = nullptr;
    QLineEdit* paramFilter_ = nullptr;
    ParamEntriesModel* paramModel_ = nullptr;
    QSortFilterProxyModel* paramProxy_ = nullptr;
    QHash<QString, QWidget*> editors_;  // pointer -> editor
    QHash<QString, EditField> fields_;  // pointer -> field
    QWidget* firstEditor_ = nullptr;
    QString lastEdited_;
    QString marked_;
    QString textError_;  // the field whose text is no value, if any
    QString textErrorMessage_;
    QString keepText_;  // the field whose text a revert must not replace
};

}  // namespace hsdp
