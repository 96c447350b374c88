#include "loading/bundled_samples.hpp"

#include <QCoreApplication>
#include <QFileInfo>

namespace tcpscope::ui {

QStringList bundledSampleDirs() {
    return {QCoreApplication::applicationDirPath() + QStringLiteral("/../share/tcpscope/samples"),
            QStringLiteral(TCPSCOPE_SAMPLES_DIR)};
}

QString bundledFile(const QString& name) {
    const QString installed = bundledSampleDirs().front() + QLatin1Char('/') + name;
    if (QFileInfo::exists(installed)) {
        return QFileInfo(installed).canonicalFilePath();
    }
    return QStringLiteral(TCPSCOPE_SAMPLES_DIR "/") + name;
}

}  // namespace tcpscope::ui
