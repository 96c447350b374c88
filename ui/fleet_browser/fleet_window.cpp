#include "fleet_browser/fleet_window.hpp"

#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QSettings>
#include <QSplitter>
#include <QVBoxLayout>

#include <stdexcept>

#include "fleet/since_time.hpp"
#include "fleet_browser/fleet_tables.hpp"

namespace tcpscope::ui {
namespace {

QTableView* tableOf(QStandardItemModel& model, QWidget* parent) {
    auto* view = new QTableView(parent);
    view->setModel(&model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setSortingEnabled(true);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
    view->setWordWrap(false);
    return view;
}

// A title over a table, in one widget for a splitter.
QWidget* titled(QLabel* title, QTableView* view) {
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    layout->addWidget(title);
    layout->addWidget(view);
    return box;
}

void fitColumns(QTableView& view) {
    view.resizeColumnsToContents();
    for (int column = 0; column < view.model()->columnCount(); ++column) {
        view.setColumnWidth(column, std::min(view.columnWidth(column), 420));
    }
}

}  // namespace

FleetWindow::FleetWindow(QWidget* parent)
    : QWidget(parent, Qt::Window),
      url_(new QLineEdit(this)),
      since_(new QLineEdit(this)),
      minHosts_(new QSpinBox(this)),
      refresh_(new QPushButton(tr("Query"), this)),
      status_(new QLabel(this)),
      hostFindingsTitle_(new QLabel(tr("Findings"), this)),
      flowsTitle_(new QLabel(tr("Flows"), this)),
      fleetFindingsView_(tableOf(fleetFindings_, this)),
      hostsView_(tableOf(hosts_, this)),
      hostFindingsView_(tableOf(hostFindings_, this)),
      flowsView_(tableOf(flows_, this)) {
    setWindowTitle(tr("Fleet - tcpscope"));
    setObjectName(QStringLiteral("fleetWindow"));
    url_->setPlaceholderText(QStringLiteral("clickhouse://127.0.0.1:8123/tcpscope"));
    url_->setToolTip(tr("The ClickHouse database the hosts export into (tcpscope-cli export/capture --to)"));
    since_->setPlaceholderText(tr("all records (e.g. 2h, 7d, 2026-11-27T18:00:00Z)"));
    minHosts_->setRange(2, 100000);
    minHosts_->setValue(2);
    minHosts_->setToolTip(tr("Hosts a fleet finding needs"));
    const QSettings settings;
    url_->setText(settings.value(QStringLiteral("fleet/url")).toString());
    since_->setText(settings.value(QStringLiteral("fleet/since")).toString());

    auto* fields = new QHBoxLayout;
    fields->addWidget(new QLabel(tr("ClickHouse:"), this));
    fields->addWidget(url_, 3);
    fields->addWidget(new QLabel(tr("Since:"), this));
    fields->addWidget(since_, 2);
    fields->addWidget(new QLabel(tr("Min hosts:"), this));
    fields->addWidget(minHosts_);
    fields->addWidget(refresh_);

    auto* top = new QSplitter(Qt::Horizontal, this);
    top->addWidget(titled(new QLabel(tr("Fleet findings: what no single host shows"), this), fleetFindingsView_));
    top->addWidget(titled(new QLabel(tr("Hosts"), this), hostsView_));
    top->setStretchFactor(0, 3);
    top->setStretchFactor(1, 2);
    auto* panes = new QSplitter(Qt::Vertical, this);
    panes->addWidget(top);
    panes->addWidget(titled(hostFindingsTitle_, hostFindingsView_));
    panes->addWidget(titled(flowsTitle_, flowsView_));

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(fields);
    layout->addWidget(status_);
    layout->addWidget(panes, 1);
    resize(1280, 800);

    connect(refresh_, &QPushButton::clicked, this, &FleetWindow::refresh);
    connect(url_, &QLineEdit::returnPressed, this, &FleetWindow::refresh);
    connect(since_, &QLineEdit::returnPressed, this, &FleetWindow::refresh);
    connect(&loader_, &FleetLoader::overviewLoaded, this, &FleetWindow::showOverview);
    connect(&loader_, &FleetLoader::findingsLoaded, this, &FleetWindow::showHostFindings);
    connect(&loader_, &FleetLoader::flowsLoaded, this, &FleetWindow::showFlows);
    connect(&loader_, &FleetLoader::failed, this, &FleetWindow::setStatus);
    connect(&loader_, &FleetLoader::idle, this, &FleetWindow::settled);
    connect(fleetFindingsView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &FleetWindow::fleetFindingChosen);
    connect(hostsView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &FleetWindow::hostChosen);
    connect(hostFindingsView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &FleetWindow::hostFindingChosen);
}

void FleetWindow::open(const QString& url, const QString& since) {
    url_->setText(url);
    since_->setText(since);
    refresh();
}

void FleetWindow::refresh() {
    try {
        const SinkTarget parsed = parseSinkTarget(url_->text().trimmed().toStdString());
        if (!std::holds_alternative<ClickHouseTarget>(parsed)) {
            throw std::invalid_argument(url_->text().trimmed().toStdString() +
                                        ": the fleet is read from clickhouse://HOST:PORT/DB");
        }
        target_ = std::get<ClickHouseTarget>(parsed);
        options_ = FleetQueryOptions{};
        options_.minHosts = static_cast<uint32_t>(minHosts_->value());
        if (!since_->text().trimmed().isEmpty()) {
            options_.sinceNs = parseSinceTime(since_->text().trimmed().toStdString(),
                                              QDateTime::currentMSecsSinceEpoch() * 1'000'000);
        }
    } catch (const std::invalid_argument& error) {
        setStatus(QString::fromStdString(error.what()));
        emit settled();
        return;
    }
    QSettings settings;
    // Kept without its password (ClickHouseTarget::text): a settings file is no place for one.
    settings.setValue(QStringLiteral("fleet/url"), QString::fromStdString(target_.text()));
    settings.setValue(QStringLiteral("fleet/since"), since_->text().trimmed());
    setStatus(tr("Asking %1...").arg(QString::fromStdString(target_.text())));
    loader_.loadOverview(target_, options_);
}

void FleetWindow::showOverview(const std::shared_ptr<const FleetOverview>& overview) {
    overview_ = overview;
    fleetFindingFilters_ = fillFleetFindings(fleetFindings_, overview->findings, options_);
    fillFleetHosts(hosts_, overview->hosts);
    hostFindings_.clear();
    flows_.clear();
    fitColumns(*fleetFindingsView_);
    fitColumns(*hostsView_);
    const auto fleetCount = static_cast<qulonglong>(fleetFindingFilters_.size());
    setStatus(tr("%1: %2, %3 that sent records%4")
                  .arg(QString::fromStdString(target_.text()))
                  .arg(fleetCount == 1 ? tr("1 fleet finding") : tr("%1 fleet findings").arg(fleetCount))
                  .arg(overview->hosts.size() == 1 ? tr("1 host") : tr("%1 hosts").arg(overview->hosts.size()))
                  .arg(options_.sinceNs != 0 ? tr(" since %1 UTC").arg(utcText(options_.sinceNs)) : QString()));
    if (!fleetFindingFilters_.empty()) {
        fleetFindingsView_->selectRow(0);
    }
}

void FleetWindow::fleetFindingChosen() {
    const int source = rowSource(fleetFindingsView_->currentIndex());
    if (source < 0 || static_cast<size_t>(source) >= fleetFindingFilters_.size()) {
        return;
    }
    const HostFindingFilter& filter = fleetFindingFilters_[static_cast<size_t>(source)];
    hostFindingsTitle_->setText(tr("Findings of %1 in the window").arg(
        fleetFindings_.item(fleetFindingsView_->currentIndex().row(), 3)->text()));
    loader_.loadFindings(target_, filter, options_.timeoutSeconds);
}

void FleetWindow::hostChosen() {
    const int source = rowSource(hostsView_->currentIndex());
    if (!overview_ || source < 0 || static_cast<size_t>(source) >= overview_->hosts.size()) {
        return;
    }
    HostFindingFilter filter;
    filter.hosts = {overview_->hosts[static_cast<size_t>(source)].host};
    filter.sinceNs = options_.sinceNs;
    hostFindingsTitle_->setText(tr("Findings of %1").arg(QString::fromStdString(filter.hosts.front())));
    loader_.loadFindings(target_, filter, options_.timeoutSeconds);
}

void FleetWindow::showHostFindings(std::shared_ptr<const std::vector<HostFinding>> findings) {
    shownFindings_ = std::move(findings);
    fillHostFindings(hostFindings_, *shownFindings_);
    flows_.clear();
    flowsTitle_->setText(tr("Flows: choose a finding"));
    fitColumns(*hostFindingsView_);
    if (shownFindings_->size() >= kDrilldownRowLimit) {
        setStatus(tr("Only the first %1 findings are listed").arg(kDrilldownRowLimit));
    }
}

void FleetWindow::hostFindingChosen() {
    const int source = rowSource(hostFindingsView_->currentIndex());
    if (!shownFindings_ || source < 0 || static_cast<size_t>(source) >= shownFindings_->size()) {
        return;
    }
    flowsFinding_ = (*shownFindings_)[static_cast<size_t>(source)];
    flowsTitle_->setText(tr("Flows of %1 towards %2 from %3 UTC (capture %4)")
                             .arg(QString::fromStdString(flowsFinding_.host),
                                  QString::fromStdString(flowsFinding_.server.empty() ? std::string("any server")
                                                                                      : flowsFinding_.server),
                                  utcText(flowsFinding_.tsNs), QString::fromStdString(flowsFinding_.captureId)));
    loader_.loadFlows(target_, flowsOfFinding(flowsFinding_), options_.timeoutSeconds);
}

void FleetWindow::showFlows(const std::shared_ptr<const std::vector<HostFlow>>& flows) {
    fillHostFlows(flows_, *flows, &flowsFinding_);
    fitColumns(*flowsView_);
    if (flows->size() >= kDrilldownRowLimit) {
        setStatus(tr("Only the first %1 flows are listed").arg(kDrilldownRowLimit));
    }
}

void FleetWindow::setStatus(const QString& text) { status_->setText(text); }

}  // namespace tcpscope::ui
