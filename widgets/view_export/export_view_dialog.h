// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>
#include <QList>
#include <QSize>
#include <QString>
#include <functional>
#include <vector>

#include "view/studio_view.h"

class QButtonGroup;
class QComboBox;
class QLabel;
class QLineEdit;
class QRadioButton;
class QSpinBox;

namespace hsdp {

// What Export View… writes.
struct ViewExportRequest {
    QString view;  // a registered view's id
    QString part;  // "": as on screen; else one of the view's screenshots() parts
    QSize size;    // invalid: the view's size on screen
    QString path;  // .png or .svg
};

// File ▸ Export View…: which view, which of its parts, at its size on screen
// or a chosen one (with slide presets), into which file (the format by its
// suffix). Save hands the request to `write`; a refusal (an unwritable
// path, a wrong suffix) is shown in the dialog, which stays open.
class ExportViewDialog : public QDialog {
    Q_OBJECT
public:
    struct View {
        QString id;
        QString title;
        QSize onScreen;         // its size in the window
        QList<ViewShot> shots;  // its screenshots(): the parts to offer
        QString suggestedPath;  // where to write it
    };
    using Writer = std::function<bool(const ViewExportRequest&, QString* error)>;

    ExportViewDialog(std::vector<View> views, int current, Writer write, QWidget* parent = nullptr);

    ViewExportRequest request() const;
    // Chooses a view by id (the window's right click); false if none has it.
    bool selectView(const QString& id);

    void accept() override;

    // Pixels a side may have: larger ones take too long and too much memory.
    static constexpr int kMaxSide = 8192;

private:
    void showView(int index);
    void applyPreset(int index);
    void browse();
    void updateSizeControls();
    QWidget* makeSizeRow();

    std::vector<View> views_;
    Writer write_;
    QComboBox* view_;
    QComboBox* part_;
    QRadioButton* onScreen_;
    QRadioButton* chosen_;
    QSpinBox* width_;
    QSpinBox* height_;
    QComboBox* preset_;
    QLineEdit* path_;
    QLabel* error_;
    bool pathEdited_ = false;  // the user typed or browsed a path: keep it across views
    QString confirmedPath_;    // chosen in the file dialog, which asked before replacing it
};

}  // namespace hsdp
