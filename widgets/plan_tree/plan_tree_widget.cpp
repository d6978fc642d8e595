// SPDX-License-Identifier: Apache-2.0
#include "plan_tree/plan_tree_widget.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScopedValueRollback>
#include <QStyle>
#include <QStyledItemDelegate>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>
#include <iterator>
#include <utility>

#include "derived/plan/model_roles.h"
#include "derived/plan/plan_tree_rows.h"
#include "painting/heat_scale.h"
#include "painting/word_elide_delegate.h"
#include "plan_tree/widest_text.h"

namespace hsdp {

namespace {

constexpr int kOwner = static_cast<int>(PlanTreeColumn::Owner);
constexpr int kNumel = static_cast<int>(PlanTreeColumn::Numel);
constexpr int kPlacements = static_cast<int>(PlanTreeColumn::Placements);
constexpr int kFitted[] = {kOwner, kNumel, kPlacements};
constexpr int kMinNameWidth = 120;

// Draws PlanTreeWidget::shownText, shortened between words where a column
// is narrower.
class ShownTextDelegate : public WordElideDelegate {
public:
    using WordElideDelegate::WordElideDelegate;

protected:
    QString fullText(const QModelIndex& index, const QString&) const override {
        return PlanTreeWidget::shownText(index);
    }
    Qt::TextElideMode elideModeFor(const QModelIndex& index, Qt::TextElideMode) const override {
        // A param's layer number and last words tell repeated layers apart
        // ("model.layers.37.…q_proj.weight"); a batch's or group's first
        // words say which it is.
        const bool param = index.data(ParamRole).toInt() >= 0;
        return index.column() == 0 && param ? Qt::ElideMiddle : Qt::ElideRight;
    }
};

const PlanTreeModel* sourceModel(const QModelIndex& index, QModelIndex* source) {
    *source = index;
    while (auto* proxy = qobject_cast<const QAbstractProxyModel*>(source->model()))
        *source = proxy->mapToSource(*source);
    return qobject_cast<const PlanTreeModel*>(source->model());
}

}  // namespace

QString PlanTreeWidget::shownText(const QModelIndex& index) {
    const QString text = index.data(Qt::DisplayRole).toString();
    if (index.column() == kNumel) {
        const qint64 numel = index.data(SortRole).toLongLong();
        return text.isEmpty() || numel < 10000 ? text : humanCount(static_cast<double>(numel));
    }
    if (index.column() == kOwner)
        return QString(text).replace(QStringLiteral(" → ranks "), QStringLiteral(" → "));
    if (index.column() != kPlacements) return text;
    QModelIndex source;
    const PlanTreeModel* model = sourceModel(index, &source);
    const int param = index.data(ParamRole).toInt();
    if (!model || param < 0 || !model->result().isValid()) return text;
    const ParamSpec& spec = model->result().scenario->params.at(static_cast<size_t>(param));
    return spec.placements ? QString::fromStdString(placementsToString(*spec.placements)) : text;
}

PlanTreeWidget::PlanTreeWidget(PlanSelection* selection, QWidget* parent)
    : QWidget(parent),
      selection_(selection),
      model_(new PlanTreeModel(this)),
      proxy_(new PlanFilterProxy(this)),
      filter_(new QLineEdit(this)),
      noMatch_(new QLabel(this)),
      tree_(new QTreeView(this)) {
    fitTimer_.setSingleShot(true);
    fitTimer_.setInterval(0);
    connect(&fitTimer_, &QTimer::timeout, this, &PlanTreeWidget::fitColumns);
    proxy_->setSourceModel(model_);
    filter_->setPlaceholderText(
        tr("Filter: name, diagnostic code, or \"rank 5\": what rank 5 computes (Ctrl+F)"));
    filter_->setToolTip(
        tr("Keeps the params whose name or diagnostic code contains the text. "
           "\"rank 5\" (or \"r 5\") keeps the params rank 5 computes: those "
           "it runs Newton–Schulz on itself, not every param its replica group "
           "holds."));
    filter_->setClearButtonEnabled(true);
    tree_->setModel(proxy_);
    tree_->setSortingEnabled(true);
    tree_->sortByColumn(-1, Qt::AscendingOrder);  // plan order until the user sorts
    tree_->setUniformRowHeights(true);
    tree_->setAlternatingRowColors(true);
    tree_->header()->setStretchLastSection(true);
    // Owner, numel and placements right after the name, sized to their
    // contents, the name taking the rest (shortened between words by the
    // delegate): all four in view in a narrow dock.
    tree_->header()->moveSection(tree_->header()->visualIndex(kPlacements), kNumel + 1);
    tree_->setIndentation(10);  // params sit three levels deep: room for their names
    tree_->setItemDelegate(new ShownTextDelegate(tree_));
    tree_->viewport()->installEventFilter(this);
    connect(tree_->header(), &QHeaderView::sectionResized, this, [this](int column) {
        if (!fitting_ && (column == 0 || std::find(std::begin(kFitted), std::end(kFitted),
                                                   column) != std::end(kFitted)))
            userSized_ = true;
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    noMatch_->setWordWrap(true);
    noMatch_->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    noMatch_->hide();
    connect(noMatch_, &QLabel::linkActivated, filter_, &QLineEdit::clear);
    layout->addWidget(filter_);
    layout->addWidget(noMatch_);
    layout->addWidget(tree_);
    connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
        proxy_->setFilter(text);
        if (!text.isEmpty()) tree_->expandAll();
        updateNoMatch();
    });
    connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &PlanTreeWidget::onCurrentChanged);
    connect(selection_, &PlanSelection::changed, this, &PlanTreeWidget::onSelectionChanged);
}

void PlanTreeWidget::setResult(const PlanResult& result) {
    result_ = result;
    model_->setResult(result);
    tree_->expandToDepth(1);
    updateNoMatch();
    onSelectionChanged();
    // Measured in the next turn of the event loop (or at the first resize or
    // picture before it): half of taking a 131,072-rank plan, 25 ms.
    measurePending_ = true;
    fitTimer_.start();
}

QImage PlanTreeWidget::picture(const QSize& size, const QString& part) {
    fitColumns();
    return StudioView::picture(size, part);
}

// An empty tree under a filter says why, and how to get the rows back.
void PlanTreeWidget::updateNoMatch() {
    const QString text = filter_->text();
    const bool none = !text.isEmpty() && proxy_->rowCount() == 0 && model_->rowCount() > 0;
    if (none)
        noMatch_->setText(
            tr("No params match '%1' — <a href=\"clear\">Clear</a>").arg(text.toHtmlEscaped()));
    noMatch_->setVisible(none);
}

bool PlanTreeWidget::eventFilter(QObject* watched, QEvent* event) {
    if (watched == tree_->viewport() && event->type() == QEvent::Resize) fitColumns();
    return QWidget::eventFilter(watched, event);
}

// The widest owner, numel and placements of any row, and the widest param
// name where it sits (collapsed rows too: expanding a batch must not cut its
// params' text).
void PlanTreeWidget::measureColumns() {
    const QFontMetrics metrics(tree_->font());
    WidestText names(metrics);
    std::vector<WidestText> columns(std::size(kFitted), WidestText(metrics));
    std::vector<std::pair<QModelIndex, int>> pending{{QModelIndex(), 1}};  // parent, depth
    while (!pending.empty()) {
        const auto [parent, depth] = pending.back();
        pending.pop_back();
        for (int row = 0; row < proxy_->rowCount(parent); ++row) {
            const QModelIndex first = proxy_->index(row, 0, parent);
            const bool branch = proxy_->hasChildren(first);
            if (branch) pending.emplace_back(first, depth + 1);
            const bool param = first.data(ParamRole).toInt() >= 0;
            if (param) names.add(shownText(first), depth * tree_->indentation());
            if (!param && !branch) continue;
            for (size_t i = 0; i < std::size(kFitted); ++i) {
                const QModelIndex cell = proxy_->index(row, kFitted[i], parent);
                if (kFitted[i] == kPlacements && cell.data(ParamRole).toInt() < 0) continue;
                columns[i].add(shownText(cell));
            }
        }
    }
    nameWidth_ = names.width();
    for (size_t i = 0; i < std::size(kFitted); ++i) contentWidths_[i] = columns[i].width();
}

// Until the user sizes a column: numel as wide as its contents, the param
// names whole where they fit (up to 45 % of the viewport: a name's layer
// number is what tells rows apart), placements up to their contents in what
// is left, the owner the rest up to its contents (long rank lists shorten
// after a whole rank run; the tooltip has them all), and the name whatever
// remains.
void PlanTreeWidget::fitColumns() {
    if (std::exchange(measurePending_, false)) measureColumns();
    if (userSized_) return;
    QScopedValueRollback guard(fitting_, true);
    const int padding = 2 * (style()->pixelMetric(QStyle::PM_FocusFrameHMargin) + 1) + 8;
    const int viewport = tree_->viewport()->width();
    auto contentWidth = [&](int i) {
        return std::max(tree_->header()->sectionSizeHint(kFitted[i]), contentWidths_[i] + padding);
    };
    auto least = [&](int column) { return tree_->header()->sectionSizeHint(column); };
    static_assert(kFitted[0] == kOwner && kFitted[1] == kNumel && kFitted[2] == kPlacements);
    const int numel = contentWidth(1);
    const int name = std::min(nameWidth_ + padding, viewport * 45 / 100);
    const int placements =
        std::clamp(viewport - numel - name - least(kOwner), least(kPlacements), contentWidth(2));
    const int owner =
        std::clamp(viewport - numel - placements - name, least(kOwner), contentWidth(0));
    tree_->setColumnWidth(kNumel, numel);
    tree_->setColumnWidth(kPlacements, placements);
    tree_->setColumnWidth(kOwner, owner);
    tree_->setColumnWidth(0, std::max(kMinNameWidth, viewport - numel - placements - owner));
}

void PlanTreeWidget::onCurrentChanged(const QModelIndex& current) {
    if (!current.isValid() || syncing_) return;
    SelectionState state;
    int param = current.data(ParamRole).toInt();
    if (param >= 0) state.params = {param};
    state.group = current.data(GroupRole).toInt();
    state.batch = current.data(BatchRole).toInt();
    state.transition = current.data(TransitionRole).toInt();
    state.ranks = selection_->stateFor(result_).ranks;  // a picked rank stays picked
    selection_->set(state, result_);
}

void PlanTreeWidget::onSelectionChanged() {
    int param = selection_->focusParamFor(result_);
    QModelIndex current = tree_->currentIndex();
    if (param < 0 || (current.isValid() && current.data(ParamRole).toInt() == param)) return;
    QModelIndex row = proxy_->mapFromSource(model_->indexOfParam(param));
    if (!row.isValid()) return;  // filtered out
    syncing_ = true;
    tree_->setCurrentIndex(row);
    syncing_ = false;
    tree_->scrollTo(row, QAbstractItemView::PositionAtCenter);
}

}  // namespace hsdp
