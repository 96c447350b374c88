#include "live_capture/permission_fix.hpp"

#include <QRegularExpression>

namespace tcpscope::ui {

QString permissionFix(const QString& message) {
    static const QRegularExpression setcap(QStringLiteral(R"(sudo setcap \S+ [^\s,;()]+)"));
    static const QRegularExpression usermod(QStringLiteral(R"(sudo usermod -aG \S+ [^\s,;()]+)"));
    for (const QRegularExpression* command : {&setcap, &usermod}) {
        const QRegularExpressionMatch match = command->match(message);
        if (match.hasMatch()) {
            return match.captured(0);
        }
    }
    return {};
}

}  // namespace tcpscope::ui
