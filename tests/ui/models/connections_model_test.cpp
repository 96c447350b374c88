// The connections table on real samples: a valid model (QAbstractItemModelTester), the time lost
// and finding kinds of each row as the findings say, and every column of the filter sorting in
// the order of the model's SortRole values (the filter compares raw values, not QVariants); the
// Process column of a capture that names its packets' processes.
#include <QAbstractItemModelTester>
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "analysis/capture_analysis.hpp"
#include "loading/analysis_results.hpp"
#include "models/connections_model.hpp"
#include "support/packet_builder.hpp"

using namespace tcpscope;
using namespace tcpscope::ui;

namespace {

ResultsPtr analysedSample(const char* capture) {
    return AnalysisResults::complete(analyzeCaptures({std::string(TCPSCOPE_SOURCE_DIR "/samples/") + capture}, {}));
}

// Whether a comes before b in a QVariant order of SortRole values (numbers or text).
bool variantLess(const QVariant& a, const QVariant& b) {
    return QVariant::compare(a, b) == QPartialOrdering::Less;
}

}  // namespace

TEST_CASE("connections table rows carry their findings' time lost and kinds", "[ui][model]") {
    ConnectionsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const ResultsPtr results = analysedSample("churn-exhaustion.pcap");
    model.setResults(results);
    REQUIRE(model.rowCount() == static_cast<int>(results->connections().size()));

    std::map<uint32_t, double> lostMs;
    std::map<uint32_t, std::set<std::string>> kinds;
    for (const Finding& finding : results->findings()) {
        if (finding.connection != kNoConnection) {
            lostMs[finding.connection] += finding.durationMs;
            kinds[finding.connection].insert(std::string(findingKindTitle(finding.kind)));
        }
    }
    REQUIRE_FALSE(kinds.empty());  // the port reuse finding names its connection
    for (const auto& [connection, names] : kinds) {
        const QModelIndex kindsCell = model.index(static_cast<int>(connection), ConnectionsModel::FindingsColumn);
        for (const std::string& name : names) {
            CHECK(kindsCell.data().toString().contains(QString::fromStdString(name)));
        }
        const QModelIndex lostCell = model.index(static_cast<int>(connection), ConnectionsModel::TimeLostColumn);
        CHECK(lostCell.data(ConnectionsModel::SortRole).toDouble() == Approx(lostMs[connection]));
    }
    const auto withoutFindings = std::find_if(results->connections().begin(), results->connections().end(),
                                              [&kinds](const Connection& c) { return kinds.count(c.id) == 0; });
    REQUIRE(withoutFindings != results->connections().end());
    CHECK(model.index(static_cast<int>(withoutFindings->id), ConnectionsModel::TimeLostColumn).data().toString() ==
          QStringLiteral("-"));
    CHECK(model.index(static_cast<int>(withoutFindings->id), ConnectionsModel::FindingsColumn).data().toString().isEmpty());

    model.setResults(nullptr);
    CHECK(model.rowCount() == 0);
}

TEST_CASE("a handshake whose SYN was sent again shows its wait and the time it lost", "[ui][model]") {
    ConnectionsModel model;
    const ResultsPtr results = analysedSample("backlog-overflow.pcap");
    model.setResults(results);
    // A client of the full listen backlog: its SYN retried, answered seconds after the first.
    const auto retried = std::find_if(results->connections().begin(), results->connections().end(),
                                      [](const Connection& c) { return c.synCount > 2 && c.synAckTsNs != kNoTime; });
    REQUIRE(retried != results->connections().end());
    const double waitMs = static_cast<double>(retried->synAckTsNs - retried->firstTsNs) / 1e6;
    REQUIRE(waitMs > 1000);
    const auto cell = [&](int column) { return model.index(static_cast<int>(retried->id), column).data().toString(); };
    INFO(cell(ConnectionsModel::RttColumn).toStdString());
    CHECK(cell(ConnectionsModel::RttColumn).startsWith(QStringLiteral("%1 s wait").arg(waitMs / 1000, 0, 'f', 2)));
    CHECK(cell(ConnectionsModel::RttColumn).contains(QStringLiteral("%1 SYNs").arg(retried->synCount)));
    CHECK(cell(ConnectionsModel::TimeLostColumn) != QStringLiteral("-"));
    CHECK(model.index(static_cast<int>(retried->id), ConnectionsModel::TimeLostColumn)
              .data(ConnectionsModel::SortRole)
              .toDouble() >= Approx(waitMs).epsilon(0.01));
    CHECK(cell(ConnectionsModel::FindingsColumn).contains(QStringLiteral("Listen backlog overflow")));
    CHECK(model.headerData(ConnectionsModel::RttColumn, Qt::Horizontal).toString() == QStringLiteral("Handshake"));
}

TEST_CASE("connections filter sorts every column in the order of its raw values", "[ui][model]") {
    ConnectionsModel model;
    ConnectionsFilter filter;
    filter.setSourceModel(&model);
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setResults(analysedSample("http-tw-reuse.pcap"));
    REQUIRE(filter.rowCount() > 3);
    for (int column = 0; column < ConnectionsModel::ColumnCount; ++column) {
        if (column == ConnectionsModel::ClientColumn || column == ConnectionsModel::ServerColumn) {
            continue;  // addresses sort as addresses (10.0.0.9 before 10.0.0.10), not as their text
        }
        for (const Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            filter.sort(column, order);
            for (int row = 1; row < filter.rowCount(); ++row) {
                const QVariant before = filter.index(row - 1, column).data(ConnectionsModel::SortRole);
                const QVariant after = filter.index(row, column).data(ConnectionsModel::SortRole);
                INFO("column " << column << " row " << row << ": " << before.toString().toStdString() << " then "
                               << after.toString().toStdString());
                const bool outOfOrder =
                    order == Qt::AscendingOrder ? variantLess(after, before) : variantLess(before, after);
                CHECK_FALSE(outOfOrder);
            }
        }
    }
    // Newest first: the row of each connection (as a click on its timeline lane selects it) is its own.
    filter.sort(ConnectionsModel::IdColumn, Qt::DescendingOrder);
    const auto rows = static_cast<uint32_t>(model.rowCount());
    CHECK(filter.index(0, 0).data(ConnectionsModel::ConnectionIdRole).toUInt() == rows - 1);
    for (uint32_t id = 0; id < rows; ++id) {
        const QModelIndex row = filter.mapFromSource(model.indexOfConnection(id));
        CHECK(row.row() == static_cast<int>(rows - 1 - id));
        CHECK(row.data(ConnectionsModel::ConnectionIdRole).toUInt() == id);
    }
    // Addresses: ascending by client endpoint as the core orders them.
    filter.sort(ConnectionsModel::ClientColumn, Qt::AscendingOrder);
    const auto& connections = model.results()->connections();
    for (int row = 1; row < filter.rowCount(); ++row) {
        const auto id = [&](int r) { return filter.index(r, 0).data(ConnectionsModel::ConnectionIdRole).toUInt(); };
        CHECK_FALSE(connections[id(row)].client < connections[id(row - 1)].client);
    }
    // The filter still narrows the sorted rows.
    filter.setFilterText(QStringLiteral("closed"));
    for (int row = 0; row < filter.rowCount(); ++row) {
        CHECK(filter.index(row, ConnectionsModel::StateColumn).data().toString().contains(QStringLiteral("closed")));
    }
}

namespace {

// A frame behind macOS's pktap header (xnu's struct pktap_header, 108 bytes, little-endian), sent
// (outbound) by process `pid` named `command`.
std::vector<uint8_t> pktapFrame(const std::vector<uint8_t>& ethernet, uint32_t pid, const std::string& command) {
    std::vector<uint8_t> frame(108, 0);
    const auto put32 = [&frame](size_t offset, uint32_t value) {
        for (int i = 0; i < 4; ++i) {
            frame[offset + static_cast<size_t>(i)] = static_cast<uint8_t>(value >> (8 * i));
        }
    };
    put32(0, 108);                  // header length
    put32(4, 1);                    // a packet follows
    put32(8, linktype::kEthernet);  // its link type
    put32(36, 0x2);                 // outbound
    put32(52, pid);
    std::copy(command.begin(), command.end(), frame.begin() + 56);
    frame.insert(frame.end(), ethernet.begin(), ethernet.end());
    return frame;
}

}  // namespace

TEST_CASE("connections table shows a Process column only when the capture names processes", "[ui][model]") {
    ConnectionsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setResults(analysedSample("http-tw-reuse.pcap"));
    CHECK(model.columnCount() == ConnectionsModel::ColumnCount);

    test::SegmentSpec request;
    request.flags = tcpflag::kSyn;
    test::SegmentSpec answer;
    std::swap(answer.source, answer.destination);
    std::swap(answer.sourcePort, answer.destinationPort);
    answer.flags = tcpflag::kSyn | tcpflag::kAck;
    answer.ack = 1;
    const std::filesystem::path path = test::uniqueTempPath("pktap-processes");
    test::writePcapFile(path,
                        {{pktapFrame(test::buildFrame(request), 4242, "curl"), 1'000'000'000, 258},
                         {pktapFrame(test::buildFrame(answer), 80, "nginx"), 1'001'000'000, 258}},
                        {.linkType = 258});
    model.setResults(AnalysisResults::complete(analyzeCaptures({path.string()}, {})));
    std::filesystem::remove(path);
    REQUIRE(model.rowCount() == 1);
    REQUIRE(model.columnCount() == ConnectionsModel::ColumnCount + 1);
    CHECK(model.headerData(ConnectionsModel::ProcessColumn, Qt::Horizontal).toString() == QStringLiteral("Process"));
    CHECK(model.index(0, ConnectionsModel::ProcessColumn).data().toString() ==
          QStringLiteral("client curl (pid 4242), server nginx (pid 80)"));
}
