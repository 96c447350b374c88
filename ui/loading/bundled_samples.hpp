#pragma once
#include <QString>
#include <QStringList>

namespace tcpscope::ui {

/// The folders of the samples that come with tcpscope: the installed one
/// (PREFIX/share/tcpscope/samples, beside the program's bin/) and the source tree's.
QStringList bundledSampleDirs();
/// A bundled sample by file name: the installed one if there is one, else the source tree's.
QString bundledFile(const QString& name);

}  // namespace tcpscope::ui
