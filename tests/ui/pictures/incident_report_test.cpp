// The incident report of every sample, as `tcpscope-cli report` writes it (issue 26): report.md,
// one self-contained report.html and an A4 report.pdf; a summary that names the impact, the cause
// and the fix; no picture taller than 2,000 px. And File > Export incident report writes the same.
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "ui/pictures/pdf_print_size.hpp"
#include "ui/window_test_support.hpp"

using namespace window_test;

namespace {

constexpr int kMaxPictureHeightPx = 2000;
// About a screen of text: 35 lines of 100 characters.
constexpr qsizetype kOneScreenChars = 3500;

QString cliPath() {
    const QString path =
        QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("../../app/tcpscope-cli"));
    INFO("tcpscope-cli is built with the ui tests: " << path.toStdString());
    REQUIRE(QFileInfo(path).isExecutable());
    return path;
}

QByteArray readAll(const QString& path) {
    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    return file.readAll();
}

// Every capture at the top of samples/, with the strace logs recorded with it (NAME.strace, or the
// NAME.strace.PID files of strace -ff).
struct Sample {
    QString capture;
    QStringList straceLogs;
};

std::vector<Sample> samples() {
    const QDir dir(QStringLiteral(TCPSCOPE_SOURCE_DIR "/samples"));
    std::vector<Sample> found;
    for (const QString& name : dir.entryList(QDir::Files, QDir::Name)) {
        if (!name.endsWith(QLatin1String(".pcap")) && !name.endsWith(QLatin1String(".pcapng")) &&
            !name.endsWith(QLatin1String(".pcap.gz")) && !name.endsWith(QLatin1String(".pcap.zst"))) {
            continue;
        }
        const QString stem = name.left(name.indexOf(QLatin1String(".pcap")));
        Sample sample{dir.filePath(name), {}};
        for (const QString& log : dir.entryList({stem + QStringLiteral(".strace"), stem + QStringLiteral(".strace.*")},
                                                QDir::Files, QDir::Name)) {
            sample.straceLogs << dir.filePath(log);
        }
        found.push_back(sample);
    }
    return found;
}

// Runs tcpscope-cli report; the report's directory.
QString runReport(const Sample& sample, const QString& out) {
    QStringList arguments{QStringLiteral("report"), sample.capture};
    for (const QString& log : sample.straceLogs) {
        arguments << QStringLiteral("--strace") << log;
    }
    arguments << QStringLiteral("--out") << out;
    QProcess process;
    process.start(cliPath(), arguments);
    REQUIRE(process.waitForFinished(240'000));
    INFO(QString::fromLocal8Bit(process.readAllStandardError()).toStdString());
    REQUIRE(process.exitCode() == 0);
    return out;
}

// Width and height from a PNG's IHDR chunk (big-endian, right after the signature and chunk header).
QSize pngSize(const QString& path) {
    const QByteArray bytes = readAll(path);
    REQUIRE(bytes.size() >= 24);
    REQUIRE(bytes.startsWith("\x89PNG\r\n\x1a\n"));
    const auto be32 = [&bytes](int at) {
        return (static_cast<uint32_t>(static_cast<uint8_t>(bytes[at])) << 24) |
               (static_cast<uint32_t>(static_cast<uint8_t>(bytes[at + 1])) << 16) |
               (static_cast<uint32_t>(static_cast<uint8_t>(bytes[at + 2])) << 8) |
               static_cast<uint32_t>(static_cast<uint8_t>(bytes[at + 3]));
    };
    return {static_cast<int>(be32(16)), static_cast<int>(be32(20))};
}

// The summary: from "## Summary" to the first section (or the end).
QString summaryOf(const QString& markdown) {
    const qsizetype begin = markdown.indexOf(QLatin1String("## Summary"));
    REQUIRE(begin >= 0);
    const qsizetype end = markdown.indexOf(QLatin1String("\n## "), begin + 3);
    return markdown.mid(begin, end < 0 ? -1 : end - begin);
}

// The pages of a PDF: each MediaBox, rounded to points.
std::vector<QSize> pdfPages(const QByteArray& pdf) {
    std::vector<QSize> pages;
    static const QRegularExpression mediaBox(
        QStringLiteral(R"(/MediaBox\s*\[\s*([-0-9.]+)\s+([-0-9.]+)\s+([-0-9.]+)\s+([-0-9.]+)\s*\])"));
    auto matches = mediaBox.globalMatch(QString::fromLatin1(pdf));
    while (matches.hasNext()) {
        const auto match = matches.next();
        pages.emplace_back(static_cast<int>(std::lround(match.captured(3).toDouble() - match.captured(1).toDouble())),
                           static_cast<int>(std::lround(match.captured(4).toDouble() - match.captured(2).toDouble())));
    }
    return pages;
}

// The cells of the Markdown report's tables that are one or two words with a digit: endpoints with
// their ports, times, durations, counts.
QStringList numberCells(const QString& markdown) {
    QStringList cells;
    for (const QString& line : markdown.split(QLatin1Char('\n'))) {
        if (!line.startsWith(QLatin1String("| ")) || line.startsWith(QLatin1String("|---"))) {
            continue;
        }
        for (const QString& cell : line.mid(1).split(QLatin1String(" |"))) {
            const QString text = cell.trimmed();
            if (text.size() >= 4 && text.count(QLatin1Char(' ')) <= 1 &&
                text.contains(QRegularExpression(QStringLiteral("[0-9]")))) {
                cells << text;
            }
        }
    }
    return cells;
}

}  // namespace

TEST_CASE("the incident report of every sample: summary, one-file HTML, A4 PDF, bounded pictures",
          "[report][samples]") {
    const std::vector<Sample> all = samples();
    REQUIRE(all.size() >= 10);
    for (const Sample& sample : all) {
        INFO(sample.capture.toStdString() << " with " << sample.straceLogs.size() << " strace logs");
        QTemporaryDir dir;
        const QString out = runReport(sample, dir.filePath(QStringLiteral("report")));
        const QDir report(out);
        for (const char* name : {"report.md", "report.html", "report.pdf"}) {
            CHECK(QFileInfo(report.filePath(QString::fromLatin1(name))).size() > 0);
        }

        const QString markdown = QString::fromUtf8(readAll(report.filePath(QStringLiteral("report.md"))));
        const QString summary = summaryOf(markdown);
        INFO(summary.toStdString());
        if (markdown.contains(QLatin1String("## 1. "))) {
            CHECK(summary.contains(QLatin1String("**What happened.**")));
            CHECK(summary.contains(QLatin1String("**Fix")));
            if (markdown.contains(QLatin1String("**Impact.** Something waited")) ||
                summary.contains(QLatin1String("**Root cause.**"))) {
                // No incident: the summary by cause.
                CHECK(summary.contains(QRegularExpression(QStringLiteral(
                    R"(\*\*Impact\.\*\* (Something waited during [0-9.]+ m?s of the capture's|Nothing waited))"))));
                CHECK(summary.contains(QLatin1String("**Root cause.**")));
            } else {
                // Incidents: each section has its impact, its cause or chain, and a fix.
                CHECK(summary.contains(QLatin1String("**Why")));
                const auto sections = markdown.count(QRegularExpression(QStringLiteral(R"(\n## [0-9]+\. )")));
                CHECK(markdown.count(QLatin1String("**Impact.**")) == sections);
                CHECK(markdown.count(QLatin1String("**Chain of cause and effect.**")) +
                          markdown.count(QLatin1String("**Cause.**")) ==
                      sections);
            }
            // One screen: a person reads the answer without scrolling.
            CHECK(summary.size() <= kOneScreenChars);
        } else {
            CHECK(summary.contains(QLatin1String("No findings")));
        }

        for (const QString& png : report.entryList({QStringLiteral("*.png")}, QDir::Files)) {
            const QSize size = pngSize(report.filePath(png));
            INFO(png.toStdString() << ": " << size.width() << " x " << size.height());
            CHECK(size.height() <= kMaxPictureHeightPx);
            CHECK(size.height() > 0);
        }

        // The page loads no file but itself: every src and href is a data: URI or an anchor.
        const QString html = QString::fromUtf8(readAll(report.filePath(QStringLiteral("report.html"))));
        static const QRegularExpression reference(QStringLiteral(R"((?:src|href)\s*=\s*["']?([^"'\s>]*))"),
                                                  QRegularExpression::CaseInsensitiveOption);
        auto references = reference.globalMatch(html);
        while (references.hasNext()) {
            const QString target = references.next().captured(1);
            INFO(target.left(80).toStdString());
            CHECK((target.startsWith(QLatin1String("data:")) || target.startsWith(QLatin1Char('#'))));
        }
        CHECK_FALSE(html.contains(QLatin1String("url("), Qt::CaseInsensitive));
        CHECK_FALSE(html.contains(QLatin1String("@import"), Qt::CaseInsensitive));
        CHECK(html.count(QLatin1String("<img ")) == report.entryList({QStringLiteral("*.png")}, QDir::Files).size());

        const QByteArray pdf = readAll(report.filePath(QStringLiteral("report.pdf")));
        CHECK(pdf.startsWith("%PDF"));
        const std::vector<QSize> pages = pdfPages(pdf);
        REQUIRE_FALSE(pages.empty());
        for (const QSize& page : pages) {
            CHECK(page == QSize(595, 842));
        }
        pdf_print::checkPrintsLegibly(report.filePath(QStringLiteral("report.pdf")));
        // On paper no table breaks a number, a port or a time over two lines.
        const QStringList lines = pdf_print::layoutLines(report.filePath(QStringLiteral("report.pdf")));
        const QStringList cells = numberCells(markdown);
        if (markdown.contains(QLatin1String("## 1. "))) {
            CHECK_FALSE(cells.isEmpty());
        }
        for (const QString& cell : cells) {
            INFO("a table's cell on paper: " << cell.toStdString());
            CHECK(
                std::any_of(lines.begin(), lines.end(), [&cell](const QString& line) { return line.contains(cell); }));
        }
    }
}

TEST_CASE(
    "the incident report of three capture points has their clocks, hops and the proxy's lifeline, and prints legibly",
    "[report][points]") {
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("points"));
    QStringList arguments{QStringLiteral("report")};
    for (const char* point : {"client", "proxy", "server"}) {
        arguments << QStringLiteral("--point")
                  << QStringLiteral("%1=" TCPSCOPE_SOURCE_DIR "/samples/rtt/rtt-nagle-proxy-%1.pcap")
                         .arg(QLatin1String(point));
    }
    arguments << QStringLiteral("--strace") << samplePath("rtt/rtt-nagle-proxy-proxy.strace") << QStringLiteral("--out")
              << out;
    QProcess process;
    process.start(cliPath(), arguments);
    REQUIRE(process.waitForFinished(240'000));
    INFO(QString::fromLocal8Bit(process.readAllStandardError()).toStdString());
    REQUIRE(process.exitCode() == 0);
    const QString markdown = QString::fromUtf8(readAll(QDir(out).filePath(QStringLiteral("report.md"))));
    INFO(markdown.toStdString());
    CHECK(markdown.contains(QLatin1String("## Capture points and clocks (3)")));
    CHECK(markdown.contains(QLatin1String("| client | rtt-nagle-proxy-client.pcap |")));
    CHECK(markdown.contains(QLatin1String("reference clock")));
    CHECK(markdown.contains(
        QRegularExpression(QStringLiteral(R"(\| client ↔ proxy \| [0-9]+ \| client → proxy \| [0-9.]+ ms)"))));
    const QString pdf = QDir(out).filePath(QStringLiteral("report.pdf"));
    pdf_print::checkPrintsLegibly(pdf);
    const QStringList lines = pdf_print::layoutLines(pdf);
    CHECK(lines.contains(QStringLiteral("Capture points and clocks (3)")));
    // The proxy's cause drawn as the GUI's ladder draws it: its two addresses one host, three
    // lifelines each at the point on its host.
    CHECK(markdown.contains(QLatin1String("![Sequence diagram of flows #0 and #1 (client, proxy, server)]")));
    const QString svg = QString::fromUtf8(readAll(QDir(out).filePath(QStringLiteral("cause-1-sequence.svg"))));
    for (const char* lifeline : {"client @ client", "proxy @ proxy", "server @ server"}) {
        CHECK(svg.contains(QLatin1String(lifeline)));
    }
}

// The fix said in each report, from "**Fix.**" to the next paragraph of another kind.
QString fixOf(const QString& markdown) {
    const qsizetype begin = markdown.indexOf(QLatin1String("\n**Fix.**"), markdown.indexOf(QLatin1String("\n## 1. ")));
    REQUIRE(begin >= 0);
    const qsizetype end = markdown.indexOf(QRegularExpression(QStringLiteral(R"(\n(\*\*(?!Fix)|#))")), begin + 3);
    return markdown.mid(begin, end < 0 ? -1 : end - begin);
}

TEST_CASE("no report's fix contradicts its capture: a fixed source port, a narrow range, a proxy",
          "[report][samples]") {
    QTemporaryDir dir;
    const auto reportOf = [&](const Sample& sample, const QString& name) {
        return QString::fromUtf8(readAll(QDir(runReport(sample, dir.filePath(name))).filePath(QStringLiteral("report.md"))));
    };
    SECTION("every connection came from port 40404: the fix is to stop binding it, not to widen the range") {
        const QString markdown = reportOf({samplePath("port-reuse-collision.pcap"), {}}, QStringLiteral("collision"));
        const QString fix = fixOf(markdown);
        INFO(fix.toStdString());
        CHECK(fix.contains(QLatin1String("Stop binding source port 40404")));
        CHECK_FALSE(fix.contains(QLatin1String("Widen")));
        CHECK(markdown.contains(QLatin1String("Widening net.ipv4.ip_local_port_range does not help")));
    }
    SECTION("the ports seen, 40000-40099: the fix gives the range's own numbers") {
        const QString markdown = reportOf({samplePath("churn-exhaustion.pcap"), {samplePath("churn-exhaustion.strace")}},
                                          QStringLiteral("churn"));
        const QString fix = fixOf(markdown);
        INFO(fix.toStdString());
        CHECK(fix.contains(QLatin1String("40000-40099 (100 ports), sustain 1.7 connections/s")));
        CHECK(markdown.count(QLatin1String("\n## ")) >= 3);  // one incident, the timeline, the findings
        CHECK(markdown.contains(QLatin1String("## 1. Client 127.0.0.1 ran out of ports toward 127.0.0.1:9000")));
        CHECK_FALSE(markdown.contains(QLatin1String("## 2. ")));
    }
    SECTION("the proxy that never set TCP_NODELAY: both its sides in one incident, the fix names it") {
        const QString markdown =
            reportOf({samplePath("proxy-nagle.pcap"), {samplePath("proxy-nagle.strace")}}, QStringLiteral("proxy"));
        const QString fix = fixOf(markdown);
        INFO(fix.toStdString());
        CHECK(fix.contains(QLatin1String("TCP_NODELAY on the sockets of the process behind 127.0.0.1:3307, on both its sides")));
        CHECK_FALSE(markdown.contains(QLatin1String("## 2. ")));
    }
}

TEST_CASE("File > Export incident report writes what tcpscope-cli report writes", "[report][window]") {
    const Sample sample{samplePath("proxy-nagle.pcap"), {samplePath("proxy-nagle.strace")}};
    QTemporaryDir dir;
    const QString fromCli = runReport(sample, dir.filePath(QStringLiteral("cli")));

    TestWindow test;
    REQUIRE(test.open({sample.capture}, sample.straceLogs));
    QAction* action = test.window.findChild<QAction*>(QStringLiteral("exportIncidentReportAction"));
    REQUIRE(action != nullptr);
    CHECK_FALSE(action->text().contains(QLatin1String("&&")));
    const QString fromGui = dir.filePath(QStringLiteral("gui"));
    REQUIRE(test.window.exportIncidentReportTo(fromGui).isEmpty());

    const QStringList files = QDir(fromCli).entryList(QDir::Files, QDir::Name);
    CHECK(QDir(fromGui).entryList(QDir::Files, QDir::Name) == files);
    for (const char* name : {"report.md", "report.html", "timeline.png", "cause-1-sequence.png"}) {
        INFO(name);
        CHECK(readAll(QDir(fromCli).filePath(QString::fromLatin1(name))) ==
              readAll(QDir(fromGui).filePath(QString::fromLatin1(name))));
    }
    // The PDF carries its creation time: the same pages, of the same size.
    CHECK(pdfPages(readAll(QDir(fromCli).filePath(QStringLiteral("report.pdf")))) ==
          pdfPages(readAll(QDir(fromGui).filePath(QStringLiteral("report.pdf")))));
}
