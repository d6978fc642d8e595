// SPDX-License-Identifier: Apache-2.0
#include "editing/edit_widget.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScopedValueRollback>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

#include "derived/plan/edit_error_text.h"
#include "derived/plan/scenario_document.h"
#include "editing/param_entries_model.h"
#include "editing/wheel_guard.h"
#include "painting/word_elide_delegate.h"

namespace hsdp {

namespace {

const char* kErrorStyle = "background: #f8d7da; border: 1px solid #c0392b;";

// Table cells commit on every keystroke, like the fields, so the plan follows
// the typing; the editor keeps what the user typed (the model's own spelling
// of the value would move the cursor).
// Cells that do not fit are shortened between words (WordElideDelegate).
class LiveEditDelegate : public WordElideDelegate {
public:
    using WordElideDelegate::WordElideDelegate;

protected:
    // Both ends, keeping the numbers: a long name keeps its layer number and
    // last words, which tell a repeat block's params apart
    // ("layers.3.….wq.weight"); placements and shapes keep both ends
    // ("R, …Shard(0)").
    Qt::TextElideMode elideModeFor(const QModelIndex&, Qt::TextElideMode) const override {
        return Qt::ElideMiddle;
    }

public:
    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                          const QModelIndex& index) const override {
        auto* editor = new QLineEdit(parent);
        connect(editor, &QLineEdit::textEdited, this,
                [this, editor] { emit const_cast<LiveEditDelegate*>(this)->commitData(editor); });
        Q_UNUSED(option);
        Q_UNUSED(index);
        return editor;
    }
    void setEditorData(QWidget* editor, const QModelIndex& index) const override {
        if (editor->property("hsdpLoaded").toBool()) return;
        editor->setProperty("hsdpLoaded", true);
        static_cast<QLineEdit*>(editor)->setText(index.data(Qt::EditRole).toString());
    }
};

}  // namespace

EditWidget::EditWidget(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent), document_(document) {
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    fieldsBox_ = new QWidget(scroll);
    fieldsLayout_ = new QVBoxLayout(fieldsBox_);
    scroll->setWidget(fieldsBox_);

    auto* paramsBox = new QWidget(this);
    auto* paramsLayout = new QVBoxLayout(paramsBox);
    paramsLayout->setContentsMargins(0, 0, 0, 0);
    paramFilter_ = new QLineEdit(paramsBox);
    paramFilter_->setPlaceholderText(tr("Filter parameters by name"));
    paramFilter_->setClearButtonEnabled(true);
    paramModel_ = new ParamEntriesModel(document_, this);
    paramProxy_ = new QSortFilterProxyModel(this);
    paramProxy_->setSourceModel(paramModel_);
    paramProxy_->setFilterKeyColumn(ParamEntriesModel::Name);
    paramProxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    connect(paramFilter_, &QLineEdit::textChanged, paramProxy_,
            &QSortFilterProxyModel::setFilterFixedString);
    params_ = new QTableView(paramsBox);
    params_->setModel(paramProxy_);
    params_->setItemDelegate(new LiveEditDelegate(params_));
    params_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                             QAbstractItemView::AnyKeyPressed);
    params_->verticalHeader()->hide();
    // Every column but the names fits its contents, so no shape or placement
    // is cut ("…4096" hid a vocabulary of 128,256); the names take the rest,
    // elided in the middle.
    QHeaderView* header = params_->horizontalHeader();
    for (int column : {ParamEntriesModel::Repeats, ParamEntriesModel::Shape,
                       ParamEntriesModel::DType, ParamEntriesModel::Placements})
        header->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(ParamEntriesModel::Name, QHeaderView::Stretch);
    header->setResizeContentsPrecision(-1);  // every row, not the first thousand's
    params_->verticalHeader()->setDefaultSectionSize(params_->fontMetrics().height() + 6);
    params_->setWordWrap(false);
    connect(params_->itemDelegate(), &QAbstractItemDelegate::closeEditor, document_,
            &ScenarioDocument::closeEditStep);
    auto* paramsTitle = new QLabel(tr("<b>Parameters</b> — double-click a shape, dtype or "
                                      "placements cell to edit it (repeat blocks: every "
                                      "repetition)"),
                                   paramsBox);
    paramsTitle->setWordWrap(true);
    paramsLayout->addWidget(paramsTitle);
    paramsLayout->addWidget(paramFilter_);
    paramsLayout->addWidget(params_, 1);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(scroll);
    splitter->addWidget(paramsBox);
    // The fields without scrolling for one mesh on a tall screen. A short
    // dock takes from both, twice as much from the fields (they scroll) as
    // from the table, and never shrinks the table below its minimum.
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);
    splitter->setSizes({330, 400});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(splitter);

    connect(paramModel_, &ParamEntriesModel::textErrorChanged, this,
            [this] { emit textErrorChanged(textError()); });
    connect(document_, &ScenarioDocument::documentReset, this, &EditWidget::rebuild);
    connect(document_, &ScenarioDocument::valueChanged, this, &EditWidget::showValue);
    rebuild();
}

void EditWidget::rebuild() {
    while (QLayoutItem* item = fieldsLayout_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    editors_.clear();
    fields_.clear();
    firstEditor_ = nullptr;
    marked_.clear();
    setTextError({}, {});
    lastEdited_.clear();
    if (!document_->isLoaded()) {
        fieldsLayout_->addWidget(new QLabel(tr("Open a scenario to edit it."), fieldsBox_));
        return;
    }
    for (const MeshFields& mesh : meshFields(document_->json())) {
        auto* box = new QGroupBox(tr("Mesh %1").arg(mesh.name), fieldsBox_);
        auto* form = new QFormLayout(box);
        for (const EditField& field : mesh.fields) addField(form, field);
        fieldsLayout_->addWidget(box);
    }
    auto* options = new QGroupBox(tr("Options"), fieldsBox_);
    auto* form = new QFormLayout(options);
    for (const EditField& field : optionFields()) addField(form, field);
    fieldsLayout_->addWidget(options);
    fieldsLayout_->addStretch(1);
}

void EditWidget::addField(QFormLayout* form, const EditField& field) {
    QWidget* editor = createEditor(field);
    editor->setObjectName(field.pointer);
    editor->setToolTip(field.pointer);
    editors_.insert(field.pointer, editor);
    fields_.insert(field.pointer, field);
    if (!firstEditor_) firstEditor_ = editor;
    form->addRow(field.label, editor);
    showValue(field.pointer);
}

void EditWidget::focusFirstField() {
    if (!firstEditor_) return;
    firstEditor_->setFocus(Qt::ShortcutFocusReason);
    if (auto* edit = qobject_cast<QLineEdit*>(firstEditor_)) edit->selectAll();
}

QWidget* EditWidget::createEditor(const EditField& field) {
    if (field.kind == FieldKind::Flag) {
        auto* box = new QCheckBox(fieldsBox_);
        connect(box, &QCheckBox::toggled, this, [this, field](bool on) {
            onTextEdited(field, on ? QStringLiteral("true") : QStringLiteral("false"));
            document_->closeEditStep();
        });
        return box;
    }
    if (field.kind == FieldKind::Choice) {
        auto* combo = new QComboBox(fieldsBox_);
        combo->addItems(field.choices);
        WheelGuard::install(combo);
        connect(combo, &QComboBox::textActivated, this, [this, field](const QString& text) {
            onTextEdited(field, text);
            document_->closeEditStep();
        });
        return combo;
    }
    auto* edit = new QLineEdit(fieldsBox_);
    edit->setPlaceholderText(field.placeholder);
    connect(edit, &QLineEdit::textEdited, this,
            [this, field](const QString& text) { onTextEdited(field, text); });
    connect(edit, &QLineEdit::editingFinished, document_, &ScenarioDocument::closeEditStep);
    return edit;
}

void EditWidget::onTextEdited(const EditField& field, const QString& text) {
    lastEdited_ = field.pointer;
    ParsedField parsed = parseFieldText(field.kind, text, field.choices);
    if (!parsed.ok()) {
        {
            // "2," on the way to "2, two": the document must not keep [2].
            QScopedValueRollback<QString> keep(keepText_, field.pointer);
            document_->revertOpenEdit(field.pointer);
        }
        const QString message =
            fieldLabel(document_->json(), field.pointer) + QStringLiteral(": ") + parsed.error;
        setMark(field.pointer, message);
        setTextError(field.pointer, message);
        return;
    }
    if (textError_ == field.pointer) setTextError({}, {});
    if (marked_ == field.pointer) setMark({}, {});
    document_->setValue(field.pointer, parsed.value,
                        tr("Edit %1 (%2)").arg(field.label.toLower(), field.pointer));
}

// Shows the document's value unless the editor already shows it in the
// user's own spelling ("2,4" for [2, 4]): an undo changes the text, typing not.
void EditWidget::showValue(const QString& pointer) {
    QWidget* editor = editors_.value(pointer);
    if (!editor) {
        // A value that holds fields (a whole mesh or the options, as a restore
        // of unsaved edits sets them) may bring others: the panel starts over.
        for (auto it = editors_.constBegin(); it != editors_.constEnd(); ++it)
            if (pointer.isEmpty() || it.key().startsWith(pointer + QLatin1Char('/'))) {
                rebuild();
                return;
            }
        return;
    }
    if (pointer == keepText_) return;
    const EditField& field = fields_[pointer];
    std::optional<Json> value = document_->value(pointer);
    const QString text = fieldText(field.kind, value);
    QSignalBlocker block(editor);
    if (auto* box = qobject_cast<QCheckBox*>(editor)) {
        box->setChecked(text == QLatin1String("true"));
    } else if (auto* combo = qobject_cast<QComboBox*>(editor)) {
        combo->setCurrentText(text.isEmpty() ? field.choices.value(0) : text);
    } else if (auto* edit = qobject_cast<QLineEdit*>(editor)) {
        ParsedField shown = parseFieldText(field.kind, edit->text());
        if (!shown.ok() || shown.value != value) edit->setText(text);
    }
    if (textError_ == pointer) setTextError({}, {});  // an undo replaced the text
    if (marked_ == pointer) setMark({}, {});
}

QString EditWidget::markReaderError(const QString& path, const QString& message) {
    // A field whose text is no value at all is the more urgent mark: the
    // reader's message is about a state the user has already typed past.
    if (!marked_.isEmpty() && marked_ == textError_) return marked_;
    if (!paramModel_->textError().isEmpty()) return {};
    QString best;
    for (auto it = editors_.constBegin(); it != editors_.constEnd(); ++it) {
        const QString& pointer = it.key();
        bool inside = path == pointer || path.startsWith(pointer + QLatin1Char('/'));
        if (inside && pointer.size() > best.size()) best = pointer;
    }
    int row =
        best.isEmpty() ? paramModel_->markError(path, message) : paramModel_->markError({}, {});
    if (row >= 0) {
        setMark({}, {});
        params_->scrollTo(paramProxy_->mapFromSource(paramModel_->index(row, 0)));
        return paramModel_->pointerOf(paramModel_->index(row, ParamEntriesModel::Placements));
    }
    if (best.isEmpty()) best = lastEdited_;
    setMark(best, message);
    return best;
}

void EditWidget::clearErrors() {
    if (!marked_.isEmpty() && marked_ == textError_) return;  // still no value
    setMark({}, {});
    paramModel_->markError({}, {});
}

void EditWidget::setMark(const QString& pointer, const QString& message) {
    if (QWidget* old = editors_.value(marked_)) {
        old->setStyleSheet({});
        old->setToolTip(marked_);
    }
    marked_ = editors_.contains(pointer) ? pointer : QString();
    if (QWidget* editor = editors_.value(marked_)) {
        editor->setStyleSheet(QLatin1String(kErrorStyle));
        editor->setToolTip(message);
    }
}

void EditWidget::setTextError(const QString& pointer, const QString& message) {
    if (pointer == textError_ && message == textErrorMessage_) return;
    textError_ = pointer;
    textErrorMessage_ = message;
    emit textErrorChanged(textError());
}

QString EditWidget::textError() const {
    return textError_.isEmpty() ? paramModel_->textError() : textErrorMessage_;
}

QWidget* EditWidget::fieldEditor(const QString& pointer) const {
    return editors_.value(pointer);
}

}  // namespace hsdp
