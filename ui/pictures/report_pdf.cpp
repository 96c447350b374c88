#include "pictures/report_pdf.hpp"

#include <QAbstractTextDocumentLayout>
#include <QFileInfo>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextObjectInterface>
#include <algorithm>

namespace tcpscope::ui {

namespace {

// A band of one of the pictures, in the text: which picture, and where its band starts and how tall it is.
constexpr int kPictureSliceObject = QTextFormat::UserObject + 1;
constexpr int kPictureProperty = QTextFormat::UserProperty + 1;
constexpr int kSliceTopProperty = QTextFormat::UserProperty + 2;
constexpr int kSliceHeightProperty = QTextFormat::UserProperty + 3;

// Bands overlap a little, so that a label cut by one's edge is whole on the other.
constexpr double kMaxSlicePx = kReportPrintPagePx;
constexpr double kSliceOverlapPx = 24;

// Layout units per pixel of a picture: QTextDocument lays a printed page out in the printer's dots and
// an image at 96 pixels per inch, as its image handler does.
double deviceScale(QTextDocument* document) {
    const QPaintDevice* device = document->documentLayout()->paintDevice();
    return device != nullptr ? device->logicalDpiX() / 96.0 : 1.0;
}

// Draws the bands of the pictures with their views' render functions: vectors, whose text the PDF
// keeps as text.
class PictureSlices : public QObject, public QTextObjectInterface {
    Q_OBJECT
    Q_INTERFACES(QTextObjectInterface)

public:
    explicit PictureSlices(const std::vector<const ExportPage*>& parts) : parts_(parts) {}

    QSizeF intrinsicSize(QTextDocument* document, int /*position*/, const QTextFormat& format) override {
        const ExportPage& page = *parts_[static_cast<size_t>(format.intProperty(kPictureProperty))];
        return QSizeF(exportPageSize(page).width(), format.doubleProperty(kSliceHeightProperty)) *
               deviceScale(document);
    }

    void drawObject(QPainter* painter, const QRectF& rect, QTextDocument* document, int /*position*/,
                    const QTextFormat& format) override {
        const ExportPage& page = *parts_[static_cast<size_t>(format.intProperty(kPictureProperty))];
        const double scale = deviceScale(document);
        painter->save();
        painter->setClipRect(rect, Qt::IntersectClip);
        painter->translate(rect.topLeft());
        painter->scale(scale, scale);
        painter->translate(0, -format.doubleProperty(kSliceTopProperty));
        paintExportPage(*painter, page, documentPalette());
        painter->restore();
    }

private:
    const std::vector<const ExportPage*>& parts_;
};

// Puts the parts of `pictures` (indices into `parts`), in bands, in place of the document's images of the same names.
void replaceImages(QTextDocument& document, const std::vector<std::pair<QString, std::vector<size_t>>>& pictures,
                   const std::vector<const ExportPage*>& parts) {
    std::vector<std::pair<int, size_t>> found;  // position in the document, picture
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) {
        for (auto fragment = block.begin(); !fragment.atEnd(); ++fragment) {
            const QTextCharFormat format = fragment.fragment().charFormat();
            if (!format.isImageFormat()) {
                continue;
            }
            const QString name = format.toImageFormat().name();
            const auto picture = std::find_if(pictures.begin(), pictures.end(),
                                              [&name](const auto& named) { return named.first == name; });
            if (picture == pictures.end()) {
                continue;
            }
            for (int at = 0; at < fragment.fragment().length(); ++at) {
                found.emplace_back(fragment.fragment().position() + at,
                                   static_cast<size_t>(picture - pictures.begin()));
            }
        }
    }
    // From the end, so that the positions before each stay where they were.
    for (auto image = found.rbegin(); image != found.rend(); ++image) {
        QTextCursor cursor(&document);
        cursor.setPosition(image->first);
        cursor.setPosition(image->first + 1, QTextCursor::KeepAnchor);
        cursor.removeSelectedText();
        bool first = true;
        for (const size_t part : pictures[image->second].second) {
            const double heightPx = exportPageSize(*parts[part]).height();
            for (double top = 0;; top += kMaxSlicePx - kSliceOverlapPx) {
                if (!first) {
                    cursor.insertText(QString(QChar::LineSeparator));
                }
                first = false;
                QTextCharFormat slice;
                slice.setObjectType(kPictureSliceObject);
                slice.setProperty(kPictureProperty, static_cast<int>(part));
                slice.setProperty(kSliceTopProperty, top);
                slice.setProperty(kSliceHeightProperty, std::min(kMaxSlicePx, heightPx - top));
                cursor.insertText(QString(QChar::ObjectReplacementCharacter), slice);
                if (top + kMaxSlicePx >= heightPx) {
                    break;
                }
            }
        }
    }
}

}  // namespace

QString writeReportPdf(const QString& path, const QString& title, const std::string& html,
                       const std::vector<std::pair<QString, std::vector<ExportPage>>>& pictures) {
    std::vector<const ExportPage*> parts;
    std::vector<std::pair<QString, std::vector<size_t>>> named;
    for (const auto& [name, pages] : pictures) {
        named.emplace_back(name, std::vector<size_t>());
        for (const ExportPage& page : pages) {
            named.back().second.push_back(parts.size());
            parts.push_back(&page);
        }
    }
    QTextDocument document;
    PictureSlices slices(parts);
    document.documentLayout()->registerHandler(kPictureSliceObject, &slices);
    document.setHtml(QString::fromStdString(html));
    replaceImages(document, named, parts);
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

#include "report_pdf.moc"
