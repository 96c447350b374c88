#include "capture_points/capture_points_dialog.hpp"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "capture/capture_error.hpp"
#include "points/capture_host.hpp"

namespace tcpscope::ui {

namespace {
enum Column { FileColumn, PointColumn };
const char* const kCaptureFilter = "Captures (*.pcap *.pcapng *.cap *.gz *.zst);;All files (*)";
}  // namespace

CapturePointsDialog::CapturePointsDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Open capture points"));
    auto* layout = new QVBoxLayout(this);
    auto* intro =
        new QLabel(tr("Captures of one incident taken at several places (client, proxy, server): each "
                      "packet is counted once, the clocks are fitted to the first point's, and each stall "
                      "is placed along the path. Files with the same point name are one point."));
    intro->setWordWrap(true);
    layout->addWidget(intro);
    table_ = new QTableWidget(0, 2);
    table_->setObjectName(QStringLiteral("pointsTable"));
    table_->setHorizontalHeaderLabels({tr("File"), tr("Point")});
    table_->horizontalHeader()->setSectionResizeMode(FileColumn, QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(PointColumn, QHeaderView::Interactive);
    table_->horizontalHeader()->resizeSection(PointColumn, 160);
    table_->verticalHeader()->hide();
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    layout->addWidget(table_);

    auto* rowButtons = new QHBoxLayout;
    auto* add = new QPushButton(tr("&Add files..."));
    add->setObjectName(QStringLiteral("addPointFiles"));
    auto* remove = new QPushButton(tr("&Remove"));
    remove->setObjectName(QStringLiteral("removePointFiles"));
    rowButtons->addWidget(add);
    rowButtons->addWidget(remove);
    rowButtons->addStretch(1);
    layout->addLayout(rowButtons);
    connect(add, &QPushButton::clicked, this, &CapturePointsDialog::addDialog);
    connect(remove, &QPushButton::clicked, this, &CapturePointsDialog::removeSelected);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    ok_ = buttons->button(QDialogButtonBox::Ok);
    ok_->setText(tr("&Analyse"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(table_, &QTableWidget::itemChanged, this, &CapturePointsDialog::updateOk);
    layout->addWidget(buttons);
    resize(640, 320);
    updateOk();
}

QString CapturePointsDialog::defaultPointName(const QString& file) {
    try {
        if (const std::optional<CaptureHost> host = guessCaptureHost({file.toStdString()})) {
            return QString::fromStdString(host->address.toString());
        }
    } catch (const CaptureError&) {
        // Named after the file: the analysis says what is wrong with it.
    }
    return QFileInfo(file).completeBaseName();
}

void CapturePointsDialog::addFiles(const QStringList& files) {
    for (const QString& file : files) {
        const int row = table_->rowCount();
        table_->insertRow(row);
        auto* fileItem = new QTableWidgetItem(QFileInfo(file).fileName());
        fileItem->setData(Qt::UserRole, file);
        fileItem->setToolTip(file);
        fileItem->setFlags(fileItem->flags() & ~Qt::ItemIsEditable);
        table_->setItem(row, FileColumn, fileItem);
        table_->setItem(row, PointColumn, new QTableWidgetItem(defaultPointName(file)));
    }
    updateOk();
}

std::vector<CapturePoint> CapturePointsDialog::points() const {
    std::vector<CapturePoint> points;
    for (int row = 0; row < table_->rowCount(); ++row) {
        const QTableWidgetItem* nameItem = table_->item(row, PointColumn);
        const QTableWidgetItem* fileItem = table_->item(row, FileColumn);
        if (nameItem == nullptr || fileItem == nullptr) {
            continue;  // a row being added
        }
        const std::string name = nameItem->text().trimmed().toStdString();
        const std::string file = fileItem->data(Qt::UserRole).toString().toStdString();
        auto point = std::find_if(points.begin(), points.end(), [&](const CapturePoint& p) { return p.name == name; });
        if (point == points.end()) {
            point = points.insert(points.end(), CapturePoint{name, {}});
        }
        point->files.push_back(file);
    }
    return points;
}

void CapturePointsDialog::addDialog() {
    addFiles(QFileDialog::getOpenFileNames(this, tr("Add captures"), QString(), tr(kCaptureFilter)));
}

void CapturePointsDialog::removeSelected() {
    const QModelIndexList rows = table_->selectionModel()->selectedRows();
    std::vector<int> numbers;
    for (const QModelIndex& index : rows) {
        numbers.push_back(index.row());
    }
    std::sort(numbers.rbegin(), numbers.rend());
    for (const int row : numbers) {
        table_->removeRow(row);
    }
    updateOk();
}

// Two points at least (one is File > Open capture), none without a name.
void CapturePointsDialog::updateOk() {
    bool named = true;
    for (int row = 0; row < table_->rowCount(); ++row) {
        const QTableWidgetItem* name = table_->item(row, PointColumn);
        named = named && name != nullptr && !name->text().trimmed().isEmpty();
    }
    ok_->setEnabled(named && points().size() >= 2);
}

}  // namespace tcpscope::ui
