#include "models/seen_at.hpp"

#include <QStringList>

namespace tcpscope::ui {

std::vector<NamedSighting> namedSightingsOf(const AnalysisResults& results, uint32_t frame) {
    std::vector<NamedSighting> named;
    const PointSightings* sightings = results.sightings();
    const CapturePointsSummary* points = results.points();
    if (sightings == nullptr || points == nullptr) {
        return named;
    }
    for (const PointSightings::Sighting& sighting : sightings->sightingsOfFrame(frame)) {
        if (sighting.point < points->points.size()) {
            named.push_back({QString::fromStdString(points->points[sighting.point].point.name), sighting.tsNs});
        }
    }
    return named;
}

QString seenAtText(const AnalysisResults& results, uint32_t frame) {
    QStringList parts;
    for (const NamedSighting& sighting : namedSightingsOf(results, frame)) {
        parts << QStringLiteral("%1 %2")
                     .arg(sighting.point)
                     .arg(static_cast<double>(sighting.tsNs - results.firstTsNs()) / 1e9, 0, 'f', 6);
    }
    return parts.join(QStringLiteral(", "));
}

}  // namespace tcpscope::ui
