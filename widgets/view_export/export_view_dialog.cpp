// SPDX-License-Identifier: Apache-2.0
#include "view_export/export_view_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "painting/secondary_text.h"
#include "view_export/view_picture.h"

namespace hsdp {

namespace {

// Sizes people show pictures at; the view's own screenshot size is added per view.
struct Preset {
    const char* name;
    QSize size;
};
constexpr Preset kSlidePresets[] = {
    {QT_TRANSLATE_NOOP("ExportViewDialog", "1920 × 1080 (Full HD slide)"), QSize(1920, 1080)},
    {QT_TRANSLATE_NOOP("ExportViewDialog", "1280 × 720 (HD slide)"), QSize(1280, 720)},
    {QT_TRANSLATE_NOOP("ExportViewDialog", "3840 × 2160 (4K slide)"), QSize(3840, 2160)},
};

QString sizeText(const QSize& size) {
    return QStringLiteral("%1 × %2").arg(size.width()).arg(size.height());
}

// A part's name in the list: its screenshot's file name without the
// suffix ("step-5", "trace-group-unfolded"), else the view's name for it.
QString partLabel(const ViewShot& shot) {
    return shot.file.isEmpty() ? shot.part : QFileInfo(shot.file).completeBaseName();
}

QSpinBox* sideBox(int value, QWidget* parent) {
    auto* box = new QSpinBox(parent);
    box->setRange(16, ExportViewDialog::kMaxSide);
    box->setValue(value);
    box->setSuffix(QObject::tr(" px"));
    return box;
}

}  // namespace

ExportViewDialog::ExportViewDialog(std::vector<View> views, int current, Writer write,
                                   QWidget* parent)
    : QDialog(parent),
      views_(std::move(views)),
      write_(std::move(write)),
      view_(new QComboBox(this)),
      part_(new QComboBox(this)),
      onScreen_(new QRadioButton(this)),
      chosen_(new QRadioButton(tr("C&hosen:"), this)),
      width_(sideBox(1920, this)),
      height_(sideBox(1080, this)),
      preset_(new QComboBox(this)),
      path_(new QLineEdit(this)),
      error_(new QLabel(this)) {
    setWindowTitle(tr("Export View"));
    view_->setObjectName(QStringLiteral("view"));
    part_->setObjectName(QStringLiteral("part"));
    onScreen_->setObjectName(QStringLiteral("onScreenSize"));
    chosen_->setObjectName(QStringLiteral("chosenSize"));
    width_->setObjectName(QStringLiteral("width"));
    height_->setObjectName(QStringLiteral("height"));
    preset_->setObjectName(QStringLiteral("preset"));
    path_->setObjectName(QStringLiteral("path"));
    error_->setObjectName(QStringLiteral("error"));
    for (const View& view : views_) view_->addItem(view.title, view.id);
    part_->setToolTip(
        tr("What the view shows in the picture: as it is on screen, or one of the "
           "pictures --screenshot writes of it"));

    auto* browse = new QPushButton(tr("&Browse…"), this);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(path_, 1);
    pathRow->addWidget(browse);
    auto* hint = new QLabel(tr("The suffix chooses the format: .png (pixels) or .svg (drawing "
                               "commands: text stays text, any size stays sharp)."),
                            this);
    hint->setWordWrap(true);
    hint->setPalette(secondaryText(hint->palette()));
    error_->setWordWrap(true);
    error_->setStyleSheet(QStringLiteral("color: #c01c28;"));
    error_->hide();

    auto* form = new QFormLayout;
    form->addRow(tr("&View:"), view_);
    form->addRow(tr("&Shows:"), part_);
    form->addRow(tr("Size:"), makeSizeRow());
    // A row of a layout gets no buddy from addRow(): its label would show
    // the '&' itself.
    auto* pathLabel = new QLabel(tr("&File:"), this);
    pathLabel->setBuddy(path_);
    form->addRow(pathLabel, pathRow);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(hint);
    layout->addWidget(error_);
    layout->addWidget(buttons);

    connect(buttons, &QDialogButtonBox::accepted, this, &ExportViewDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ExportViewDialog::reject);
    connect(view_, &QComboBox::currentIndexChanged, this, &ExportViewDialog::showView);
    connect(preset_, &QComboBox::activated, this, &ExportViewDialog::applyPreset);
    connect(browse, &QPushButton::clicked, this, &ExportViewDialog::browse);
    connect(path_, &QLineEdit::textEdited, this, [this] { pathEdited_ = true; });
    connect(onScreen_, &QRadioButton::toggled, this, &ExportViewDialog::updateSizeControls);
    onScreen_->setChecked(true);
    view_->setCurrentIndex(std::max(current, 0));
    showView(view_->currentIndex());
    updateSizeControls();
    path_->setMinimumWidth(fontMetrics().averageCharWidth() * 60);
}

QWidget* ExportViewDialog::makeSizeRow() {
    auto* row = new QWidget(this);
    auto* grid = new QGridLayout(row);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(onScreen_, 0, 0, 1, 5);
    grid->addWidget(chosen_, 1, 0);
    grid->addWidget(width_, 1, 1);
    grid->addWidget(new QLabel(QStringLiteral("×"), row), 1, 2);
    grid->addWidget(height_, 1, 3);
    grid->addWidget(preset_, 1, 4);
    grid->setColumnStretch(5, 1);
    return row;
}

void ExportViewDialog::showView(int index) {
    if (index < 0 || size_t(index) >= views_.size()) return;
    const View& view = views_[size_t(index)];
    part_->clear();
    part_->addItem(tr("As on screen"), QString());
    for (const ViewShot& shot : view.shots)
        if (!shot.part.isEmpty()) part_->addItem(partLabel(shot), shot.part);
    part_->setEnabled(part_->count() > 1);
    onScreen_->setText(tr("As on scr&een: %1 px").arg(sizeText(view.onScreen)));
    preset_->clear();
    preset_->addItem(tr("Presets…"));
    for (const Preset& preset : kSlidePresets) preset_->addItem(tr(preset.name), preset.size);
    if (!view.shots.isEmpty())
        preset_->addItem(tr("%1 (as --screenshot draws it)").arg(sizeText(view.shots.front().size)),
                         view.shots.front().size);
    if (!pathEdited_) path_->setText(view.suggestedPath);
}

void ExportViewDialog::applyPreset(int index) {
    const QSize size = preset_->itemData(index).toSize();
    if (!size.isValid()) return;
    width_->setValue(size.width());
    height_->setValue(size.height());
    chosen_->setChecked(true);
    preset_->setCurrentIndex(0);
}

void ExportViewDialog::updateSizeControls() {
    const bool chosen = chosen_->isChecked();
    width_->setEnabled(chosen);
    height_->setEnabled(chosen);
}

void ExportViewDialog::browse() {
    const QString png = tr("PNG image (*.png)");
    const QString svg = tr("SVG drawing (*.svg)");
    QString filter = pictureFormatOf(path_->text()) == PictureFormat::Svg ? svg : png;
    QString path = QFileDialog::getSaveFileName(this, tr("Export View"), path_->text(),
                                                png + QStringLiteral(";;") + svg, &filter);
    if (path.isEmpty()) return;
    if (!pictureFormatOf(path))
        path += filter == svg ? QStringLiteral(".svg") : QStringLiteral(".png");
    path_->setText(path);
    pathEdited_ = true;
    confirmedPath_ = path;  // the file dialog asked before replacing it
}

bool ExportViewDialog::selectView(const QString& id) {
    const int index = view_->findData(id);
    if (index < 0) return false;
    view_->setCurrentIndex(index);
    return true;
}

ViewExportRequest ExportViewDialog::request() const {
    ViewExportRequest request;
    request.view = view_->currentData().toString();
    request.part = part_->currentData().toString();
    if (chosen_->isChecked()) request.size = QSize(width_->value(), height_->value());
    request.path = path_->text().trimmed();
    return request;
}

void ExportViewDialog::accept() {
    const ViewExportRequest wanted = request();
    QString error;
    if (wanted.path.isEmpty()) {
        error = tr("Choose the file to write.");
    } else if (wanted.path != confirmedPath_ && QFileInfo::exists(wanted.path) &&
               QMessageBox::question(this, tr("Export View"),
                                     tr("%1 exists. Replace it?").arg(wanted.path)) !=
                   QMessageBox::Yes) {
        return;
    } else if (write_ && !write_(wanted, &error) && error.isEmpty()) {
        error = tr("%1 was not written.").arg(wanted.path);
    }
    if (!error.isEmpty()) {
        error_->setText(error);
        error_->show();
        return;
    }
    QDialog::accept();
}

}  // namespace hsdp
