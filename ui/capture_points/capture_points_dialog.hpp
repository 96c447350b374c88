#pragma once
#include <QDialog>
#include <QStringList>
#include <vector>

#include "points/capture_point.hpp"

class QTableWidget;
class QPushButton;

namespace tcpscope::ui {

/// File > Open capture points: the captures of one incident taken at several places (the client,
/// the proxy, the server), one row per file with the name of its point. A file's point is named
/// after the host it was captured on (guessCaptureHost), which the user may change; files with the
/// same name are one point. A thin controller: the points are analysed by the loader.
class CapturePointsDialog : public QDialog {
    Q_OBJECT

public:
    explicit CapturePointsDialog(QWidget* parent = nullptr);

    /// Adds a row per file, its point named after its host (the file's name if it has no TCP or
    /// cannot be read).
    void addFiles(const QStringList& files);
    /// The points in the order of their first file, each with its files in the order of the rows.
    [[nodiscard]] std::vector<CapturePoint> points() const;
    [[nodiscard]] QTableWidget& table() const { return *table_; }

    /// The name a file's point gets when it is added: the address of the host it was captured on.
    static QString defaultPointName(const QString& file);

private:
    void addDialog();
    void removeSelected();
    void updateOk();

    QTableWidget* table_ = nullptr;
    QPushButton* ok_ = nullptr;
};

}  // namespace tcpscope::ui
