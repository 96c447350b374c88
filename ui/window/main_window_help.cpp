// The Help menu: the guides (the docs/ the package installs, or the source tree's), the keyboard
// shortcuts of every menu, and what this build is.
#include <QAction>
#include <QApplication>
#include <QDesktopServices>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QTableWidget>
#include <QUrl>
#include <QVBoxLayout>

#include "window/main_window.hpp"

namespace tcpscope::ui {

namespace {

// docs/NAME as installed beside the program (share/tcpscope/docs), else in the source tree it was built from.
QString guidePath(const QString& name) {
    const QString installed = QCoreApplication::applicationDirPath() + QStringLiteral("/../share/tcpscope/docs/") + name;
    if (QFileInfo::exists(installed)) {
        return QFileInfo(installed).canonicalFilePath();
    }
    return QStringLiteral(TCPSCOPE_DOCS_DIR "/") + name;
}

// Every menu action with a shortcut, "Menu > Action" (without the mnemonic marks) and its keys.
QList<QPair<QString, QString>> menuShortcuts(const QMenuBar& bar) {
    QList<QPair<QString, QString>> rows;
    const auto plain = [](QString text) { return text.remove(QLatin1Char('&')); };
    for (const QAction* menuAction : bar.actions()) {
        const QMenu* menu = menuAction->menu();
        if (menu == nullptr) {
            continue;
        }
        for (const QAction* action : menu->actions()) {
            for (const QKeySequence& keys : action->shortcuts()) {
                rows.append({plain(menuAction->text()) + QStringLiteral(" > ") + plain(action->text()),
                             keys.toString(QKeySequence::NativeText)});
            }
        }
    }
    return rows;
}

}  // namespace

void MainWindow::buildHelpMenu() {
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    const auto guide = [this, help](const QString& text, const QString& name) {
        QAction* action = help->addAction(text, this, [this, name] {
            const QString path = guidePath(name);
            if (!QFileInfo::exists(path) || !QDesktopServices::openUrl(QUrl::fromLocalFile(path))) {
                statusBar()->showMessage(tr("Cannot open %1").arg(path), 15000);
            }
        });
        action->setData(name);
        return action;
    };
    guide(tr("&Guide to the window"), QStringLiteral("gui.md"))->setShortcut(QKeySequence::HelpContents);
    guide(tr("The &command line (tcpscope-cli)"), QStringLiteral("cli.md"));
    guide(tr("Wireshark's analysis &flags in tcpscope"), QStringLiteral("wireshark-flags.md"));
    guide(tr("How &accurate the findings are"), QStringLiteral("accuracy.md"));
    help->addSeparator();
    help->addAction(tr("&Keyboard shortcuts"), this, &MainWindow::shortcutsDialog);
    help->addSeparator();
    help->addAction(tr("&About tcpscope"), this, [this] {
        QMessageBox::about(this, tr("About tcpscope"),
                           tr("<p><b>tcpscope</b> %1</p><p>Finds the stalls in TCP captures and tells the incident "
                              "behind them: Nagle and delayed ACK, port reuse, TIME_WAIT and ephemeral ports, "
                              "listen backlogs; lined up with strace logs.</p><p>Built with Qt %2, running on Qt %3.</p>")
                               .arg(QApplication::applicationVersion(), QStringLiteral(QT_VERSION_STR), qVersion()));
    });
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::shortcutsDialog() {
    QDialog dialog(this);
    dialog.setObjectName(QStringLiteral("shortcutsDialog"));
    dialog.setWindowTitle(tr("Keyboard shortcuts"));
    const QList<QPair<QString, QString>> rows = menuShortcuts(*menuBar());
    auto* table = new QTableWidget(static_cast<int>(rows.size()), 2, &dialog);
    table->setHorizontalHeaderLabels({tr("Command"), tr("Keys")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    for (int row = 0; row < rows.size(); ++row) {
        table->setItem(row, 0, new QTableWidgetItem(rows[row].first));
        table->setItem(row, 1, new QTableWidgetItem(rows[row].second));
    }
    table->resizeColumnsToContents();
    table->horizontalHeader()->setStretchLastSection(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(table);
    layout->addWidget(buttons);
    dialog.resize(table->horizontalHeader()->length() + 60, 480);
    dialog.exec();
}

}  // namespace tcpscope::ui
