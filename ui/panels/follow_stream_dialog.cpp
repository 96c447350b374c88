#include "panels/follow_stream_dialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTextCursor>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "dissect/frame_bytes_reader.hpp"
#include "dissect/hex_dump.hpp"

namespace tcpscope::ui {

namespace {

// Wireshark's default colours for the two sides of a followed stream.
const QColor kClientText(0x7f, 0x00, 0x00);
const QColor kClientBackground(0xfb, 0xed, 0xed);
const QColor kServerText(0x00, 0x00, 0x7f);
const QColor kServerBackground(0xed, 0xed, 0xfb);
// A conversation longer than this is shown cut: a text widget with tens of megabytes stalls.
constexpr size_t kShownBytes = size_t{4} << 20;

QString bytesText(uint64_t count) {
    return QObject::tr("%1 bytes").arg(count);
}

}  // namespace

FollowStreamDialog::FollowStreamDialog(const ResultsPtr& results, uint32_t connection, QWidget* parent)
    : QDialog(parent) {
    setObjectName(QStringLiteral("followStreamDialog"));
    const Connection& followed = results->connections()[connection];
    client_ = QString::fromStdString(followed.client.toString());
    server_ = QString::fromStdString(followed.server.toString());
    setWindowTitle(
        tr("Follow TCP Stream (tcp.stream eq %1) \u00b7 %2 \u2194 %3").arg(connection).arg(client_, server_));
    text_ = new QPlainTextEdit;
    text_->setObjectName(QStringLiteral("followText"));
    text_->setReadOnly(true);
    text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    text_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    summary_ = new QLabel;
    summary_->setObjectName(QStringLiteral("followSummary"));
    summary_->setWordWrap(true);
    directionBox_ = new QComboBox;
    directionBox_->setObjectName(QStringLiteral("followDirection"));
    formatBox_ = new QComboBox;
    formatBox_->setObjectName(QStringLiteral("followFormat"));
    formatBox_->addItems({tr("ASCII"), tr("Hex Dump"), tr("Raw")});
    connect(directionBox_, &QComboBox::currentIndexChanged, this, &FollowStreamDialog::render);
    connect(formatBox_, &QComboBox::currentIndexChanged, this, &FollowStreamDialog::render);

    auto* controls = new QHBoxLayout;
    controls->addWidget(directionBox_, 1);
    controls->addWidget(new QLabel(tr("Show data as")));
    controls->addWidget(formatBox_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(text_, 1);
    layout->addWidget(summary_);
    layout->addLayout(controls);
    layout->addWidget(buttons);
    resize(900, 600);
    text_->setPlainText(tr("Reading the payload again from the capture file\u2026"));
    connect(&watcher_, &QFutureWatcher<dissect::FollowedStream>::finished, this,
            [this] { showStream(watcher_.result()); });
    // The results are immutable once complete: the pool thread reads them through its own reference.
    watcher_.setFuture(QtConcurrent::run([results, connection] {
        dissect::FollowedStream stream;
        const CaptureAnalysis* analysis = results->analysis();
        if (analysis == nullptr || analysis->inputs.empty() || results->packets() == nullptr) {
            stream.problems.emplace_back(
                "the payload is read again from the capture file once the analysis is complete");
            return stream;
        }
        try {
            dissect::FrameBytesReader reader(analysis->inputs.front().path);
            stream = dissect::followTcpStream(*results->packets(), connection, reader);
        } catch (const CaptureError& error) {
            stream.problems.push_back(error.problem().describe());
        }
        return stream;
    }));
}

FollowStreamDialog::~FollowStreamDialog() {
    watcher_.waitForFinished();
}

void FollowStreamDialog::showStream(dissect::FollowedStream stream) {
    stream_ = std::move(stream);
    ready_ = true;
    const QSignalBlocker blocker(directionBox_);
    directionBox_->clear();
    directionBox_->addItem(tr("Entire conversation (%1)").arg(bytesText(stream_.clientBytes + stream_.serverBytes)));
    directionBox_->addItem(tr("%1 \u2192 %2 (%3)").arg(client_, server_, bytesText(stream_.clientBytes)));
    directionBox_->addItem(tr("%1 \u2192 %2 (%3)").arg(server_, client_, bytesText(stream_.serverBytes)));
    render();
    emit followed();
}

void FollowStreamDialog::setFormat(Format format) {
    formatBox_->setCurrentIndex(static_cast<int>(format));
}

void FollowStreamDialog::setDirection(Direction direction) {
    directionBox_->setCurrentIndex(static_cast<int>(direction));
}

QString FollowStreamDialog::shownText() const {
    return text_->toPlainText();
}

void FollowStreamDialog::render() {
    if (!ready_) {
        return;
    }
    const auto format = static_cast<Format>(formatBox_->currentIndex());
    const auto direction = static_cast<Direction>(directionBox_->currentIndex());
    text_->clear();
    QTextCursor cursor(text_->document());
    QTextCharFormat client;
    client.setForeground(kClientText);
    client.setBackground(kClientBackground);
    QTextCharFormat server;
    server.setForeground(kServerText);
    server.setBackground(kServerBackground);
    QTextCharFormat gap;
    gap.setForeground(QColor(0x80, 0x80, 0x80));
    gap.setFontItalic(true);
    uint64_t offsets[2] = {0, 0};
    size_t shown = 0;
    for (const dissect::StreamChunk& chunk : stream_.chunks) {
        if ((direction == Direction::ClientOnly && chunk.fromServer) ||
            (direction == Direction::ServerOnly && !chunk.fromServer)) {
            continue;
        }
        if (chunk.missingBytes > 0) {
            cursor.insertText(tr("[%1 bytes missing in capture]\n").arg(chunk.missingBytes), gap);
            continue;
        }
        if (shown >= kShownBytes) {
            cursor.insertText(tr("[\u2026 the rest is not shown: %1 bytes at most]\n").arg(kShownBytes), gap);
            break;
        }
        const std::span<const uint8_t> bytes(chunk.bytes.data(), std::min(chunk.bytes.size(), kShownBytes - shown));
        shown += bytes.size();
        uint64_t& offset = offsets[chunk.fromServer ? 1 : 0];
        QString text;
        switch (format) {
            case Format::Ascii: text = QString::fromLatin1(dissect::printableText(bytes).c_str()); break;
            case Format::HexDump:
                for (const std::string& line : dissect::hexDumpLines(bytes, offset, 8)) {
                    text +=
                        (chunk.fromServer ? QStringLiteral("    ") : QString()) + QString::fromStdString(line) + '\n';
                }
                break;
            case Format::Raw:
                text = QString::fromLatin1(
                           QByteArray(reinterpret_cast<const char*>(bytes.data()), static_cast<qsizetype>(bytes.size()))
                               .toHex()) +
                       '\n';
                break;
        }
        offset += bytes.size();
        if (format == Format::Ascii && !text.endsWith('\n')) {
            text += '\n';  // the next side's bytes start on a line of their own
        }
        cursor.insertText(text, chunk.fromServer ? server : client);
    }
    text_->moveCursor(QTextCursor::Start);
    QString summary = tr("Entire conversation (%1): %2 \u2192 %3 %4, %3 \u2192 %2 %5.")
                          .arg(bytesText(stream_.clientBytes + stream_.serverBytes), client_, server_,
                               bytesText(stream_.clientBytes), bytesText(stream_.serverBytes));
    if (stream_.clientMissing + stream_.serverMissing > 0) {
        summary += tr(" Missing in the capture: %1.").arg(bytesText(stream_.clientMissing + stream_.serverMissing));
    }
    if (!stream_.problems.empty()) {
        summary += tr(" Not read: %1").arg(QString::fromStdString(stream_.problems.front()));
    }
    summary_->setText(summary);
}

}  // namespace tcpscope::ui
