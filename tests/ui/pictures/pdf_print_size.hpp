// The size of a PDF's text as printed on A4, measured with poppler-utils: pdftotext -bbox-layout
// gives each word's box and each page's size in points, the fonts' descriptors their ascent and
// descent, from which a box's height gives the font size (poppler's box spans the font's ascent to
// its descent). A page that is not A4 is scaled as a print dialog's "fit to page" does: by the
// factor that fits it on A4 portrait or landscape, whichever is larger, and never enlarged.
#pragma once
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSizeF>
#include <QString>
#include <QStringList>
#include <algorithm>
#include <catch2/catch.hpp>
#include <optional>

namespace pdf_print {

inline constexpr double kA4ShortPt = 595.276;
inline constexpr double kA4LongPt = 841.89;
inline constexpr double kMinPrintedTextPt = 8;

/// The smallest word of a PDF as printed on A4.
struct SmallestText {
    double points = 0;  ///< its font size on the A4 sheet
    QString word;
    int page = 0;  ///< from 1
    QSizeF pageSizePt;
    double fitToA4 = 1;  ///< the page's scale on the sheet
};

/// What a poppler tool printed on its standard output; fails the test if it did not run.
inline QString popplerOutput(const QString& program, const QStringList& arguments) {
    QProcess process;
    process.start(program, arguments);
    INFO(program.toStdString() << " (poppler-utils) runs");
    REQUIRE(process.waitForFinished(60'000));
    INFO(QString::fromLocal8Bit(process.readAllStandardError()).toStdString());
    REQUIRE(process.exitCode() == 0);
    return QString::fromUtf8(process.readAllStandardOutput());
}

/// The scale "fit to page" gives a page of `sizePt` on an A4 sheet, turned the way it fits larger.
inline double fitToA4(const QSizeF& sizePt) {
    const double portrait = std::min(kA4ShortPt / sizePt.width(), kA4LongPt / sizePt.height());
    const double landscape = std::min(kA4LongPt / sizePt.width(), kA4ShortPt / sizePt.height());
    // A page within 1 pt of A4 is A4 (PDF writers round its size).
    return std::min(1.0, std::max(portrait, landscape) * (1 + 1.0 / kA4LongPt));
}

/// A word box's height per point of font size: the largest ascent minus descent of the PDF's fonts
/// (the largest gives the smallest size: the measure errs toward small); poppler's own default if
/// the PDF names none.
inline double boxHeightPerPoint(const QByteArray& pdf) {
    static const QRegularExpression metric(QStringLiteral(R"(/Ascent\s+([-0-9.]+)\s*/Descent\s+([-0-9.]+))"));
    double span = 0;
    auto matches = metric.globalMatch(QString::fromLatin1(pdf));
    while (matches.hasNext()) {
        const auto match = matches.next();
        span = std::max(span, (match.captured(1).toDouble() - match.captured(2).toDouble()) / 1000);
    }
    return span > 0 ? span : 0.95 + 0.35;
}

/// The smallest text of the PDF at `path` as printed on A4, or nullopt if it has no text.
inline std::optional<SmallestText> smallestPrintedText(const QString& path) {
    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    const double perPoint = boxHeightPerPoint(file.readAll());
    const QString boxes =
        popplerOutput(QStringLiteral("pdftotext"), {QStringLiteral("-bbox-layout"), path, QStringLiteral("-")});
    static const QRegularExpression pageTag(QStringLiteral(R"re(<page width="([0-9.]+)" height="([0-9.]+)">)re"));
    static const QRegularExpression wordTag(QStringLiteral(
        R"re(<word xMin="([-0-9.]+)" yMin="([-0-9.]+)" xMax="([-0-9.]+)" yMax="([-0-9.]+)">([^<]*)</word>)re"));
    std::optional<SmallestText> smallest;
    int pageNumber = 0;
    qsizetype at = 0;
    while (true) {
        const auto page = pageTag.match(boxes, at);
        if (!page.hasMatch()) {
            break;
        }
        ++pageNumber;
        const QSizeF sizePt(page.captured(1).toDouble(), page.captured(2).toDouble());
        const double fit = fitToA4(sizePt);
        const qsizetype next = boxes.indexOf(QLatin1String("<page "), page.capturedEnd());
        const QString body = boxes.mid(page.capturedEnd(), next < 0 ? -1 : next - page.capturedEnd());
        auto words = wordTag.globalMatch(body);
        while (words.hasNext()) {
            const auto word = words.next();
            const double points = (word.captured(4).toDouble() - word.captured(2).toDouble()) / perPoint * fit;
            if (!smallest || points < smallest->points) {
                smallest = SmallestText{points, word.captured(5), pageNumber, sizePt, fit};
            }
        }
        if (next < 0) {
            break;
        }
        at = next;
    }
    return smallest;
}

/// "7.9 pt ('+43.4' on page 2 of 1280 x 5754 pt, fitted at 0.146)", for a test's message.
inline std::string describe(const SmallestText& text) {
    return QStringLiteral("%1 pt ('%2' on page %3 of %4 x %5 pt, fitted at %6)")
        .arg(text.points, 0, 'f', 2)
        .arg(text.word)
        .arg(text.page)
        .arg(text.pageSizePt.width(), 0, 'f', 0)
        .arg(text.pageSizePt.height(), 0, 'f', 0)
        .arg(text.fitToA4, 0, 'f', 3)
        .toStdString();
}

/// Checks that the smallest text of the PDF at `path` prints at 8 pt or more on A4.
inline void checkPrintsLegibly(const QString& path) {
    const std::optional<SmallestText> smallest = smallestPrintedText(path);
    INFO(path.toStdString());
    REQUIRE(smallest.has_value());
    INFO("smallest text " << describe(*smallest));
    CHECK(smallest->points >= kMinPrintedTextPt);
}

/// The PDF's text as pdftotext -layout lays it out, runs of spaces made one.
inline QStringList layoutLines(const QString& path) {
    static const QRegularExpression spaces(QStringLiteral(" {2,}"));
    QStringList lines =
        popplerOutput(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), path, QStringLiteral("-")})
            .split(QLatin1Char('\n'));
    for (QString& line : lines) {
        line = line.replace(spaces, QStringLiteral(" ")).trimmed();
    }
    return lines;
}

}  // namespace pdf_print
