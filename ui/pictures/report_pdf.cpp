#include "pictures/report_pdf.hpp"

#include <QFileInfo>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QTextDocument>
#include <QUrl>

namespace tcpscope::ui {

QString writeReportPdf(const QString& path, const QString& title, const std::string& html,
                       const std::vector<std::pair<QString, QImage>>& images) {
    QTextDocument document;
    for (const auto& [name, image] : images) {
        document.addResource(QTextDocument::ImageResource, QUrl(name), image);
    }
    document.setHtml(QString::fromStdString(html));
    QPdfWriter writer(path);
    writer.setCreator(QStringLiteral("tcpscope"));
    writer.setTitle(title);
    writer.setResolution(300);
    // QTextDocument::print adds 2 cm margins of its own (and the page numbers in them).
    writer.setPageLayout(
        QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(2, 2, 2, 2), QPageLayout::Millimeter));
    document.print(&writer);
    // QTextDocument::print reports nothing: the file tells whether it was written.
    if (QFileInfo(path).size() == 0) {
        return QStringLiteral("%1: cannot write the PDF").arg(path);
    }
    return {};
}

}  // namespace tcpscope::ui
