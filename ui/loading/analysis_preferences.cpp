#include "loading/analysis_preferences.hpp"

#include <algorithm>
#include <array>
#include <type_traits>

#include "align/strace_time_zone.hpp"

namespace tcpscope::ui {

namespace {

// Each field names its member once: the getter and setter come from the same pointer.
template <auto Member>
constexpr ThresholdField field(const char* key, const char* label, const char* tooltip, double minimum, double maximum,
                               int decimals) {
    return {key,
            label,
            tooltip,
            minimum,
            maximum,
            decimals,
            [](const DetectorOptions& options) { return static_cast<double>(options.*Member); },
            [](DetectorOptions& options, double value) {
                using Type = std::remove_reference_t<decltype(options.*Member)>;
                options.*Member = static_cast<Type>(value);
            }};
}

const std::array kFields = {
    field<&DetectorOptions::delayedAckFloorMs>(
        "delayed-ack-floor-ms", "Delayed ACK floor (ms)",
        "an ACK at least this late is a delayed ACK (Linux 40, macOS ~100, Windows 200)", 1, 1000, 1),
    field<&DetectorOptions::nagleReleaseMs>("nagle-release-ms", "Nagle release (ms)",
                                            "a held segment leaves within this (plus the RTT) after the ACK", 0, 1000,
                                            1),
    field<&DetectorOptions::timeWaitSeconds>("time-wait-s", "TIME_WAIT length (s)",
                                             "how long the active closer keeps TIME_WAIT", 1, 3600, 0),
    field<&DetectorOptions::synRetransmitMinMs>("syn-retransmit-min-ms", "SYN retransmission (ms)",
                                                "a repeated SYN at least this late is a retransmission by timeout", 1,
                                                60000, 0),
    field<&DetectorOptions::retransmissionStallMinMs>("rto-stall-min-ms", "Retransmission stall (ms)",
                                                      "a gap ended by a retransmission at least this long is a stall",
                                                      1, 60000, 0),
    field<&DetectorOptions::zeroWindowStallMinMs>("zero-window-min-ms", "Zero window stall (ms)",
                                                  "a closed receive window at least this long is a stall", 0, 60000, 1),
    field<&DetectorOptions::timeWaitMinCloses>("time-wait-min-closes", "TIME_WAIT churn: closes",
                                               "report TIME_WAIT churn for a host that closed at least this many first",
                                               1, 1e9, 0),
    field<&DetectorOptions::timeWaitWarnShare>("time-wait-warn-share", "TIME_WAIT churn: warning share",
                                               "a warning above this share of the port range in TIME_WAIT", 0, 1, 3),
    field<&DetectorOptions::portPauseMinShare>("port-pause-min-share", "Port exhaustion: pause share",
                                               "a pause of new connections at least this share of TIME_WAIT", 0, 10, 3),
    field<&DetectorOptions::portExhaustionMinPorts>("port-exhaustion-min-ports", "Port exhaustion: ports",
                                                    "port exhaustion needs at least this many ports in use", 1, 65535,
                                                    0),
};

QString settingsKey(const char* key) {
    return QStringLiteral("detectors/%1").arg(QLatin1String(key));
}

}  // namespace

std::span<const ThresholdField> thresholdFields() {
    return kFields;
}

void AnalysisPreferences::applyTo(LoadRequest& request) const {
    request.options.detectors = detectors;
    request.clock.tzOffsetMinutes = straceTz.isEmpty() ? std::nullopt : parseTimeZoneOffset(straceTz.toStdString());
    request.clock.offsetMs = straceOffsetMs;
}

AnalysisPreferences AnalysisPreferences::load(const QSettings& settings) {
    AnalysisPreferences preferences;
    preferences.os = settings.value(QStringLiteral("detectors/os"), preferences.os).toString();
    preferences.detectors = DetectorOptions::forOs(preferences.os.toStdString()).value_or(DetectorOptions{});
    for (const ThresholdField& threshold : kFields) {
        const QVariant value = settings.value(settingsKey(threshold.key));
        if (value.isValid()) {
            threshold.set(preferences.detectors, std::clamp(value.toDouble(), threshold.minimum, threshold.maximum));
        }
    }
    if (settings.value(QStringLiteral("detectors/port-range-given"), false).toBool()) {
        const int low = settings.value(QStringLiteral("detectors/port-range-low")).toInt();
        const int high = settings.value(QStringLiteral("detectors/port-range-high")).toInt();
        if (low >= 1 && low <= high && high <= 65535) {
            preferences.detectors.portRangeLow = static_cast<uint16_t>(low);
            preferences.detectors.portRangeHigh = static_cast<uint16_t>(high);
            preferences.detectors.portRangeGiven = true;
        }
    }
    preferences.straceTz = settings.value(QStringLiteral("strace/tz")).toString();
    const QVariant offset = settings.value(QStringLiteral("strace/offset-ms"));
    if (offset.isValid()) {
        preferences.straceOffsetMs = offset.toDouble();
    }
    return preferences;
}

void AnalysisPreferences::save(QSettings& settings) const {
    settings.setValue(QStringLiteral("detectors/os"), os);
    for (const ThresholdField& threshold : kFields) {
        settings.setValue(settingsKey(threshold.key), threshold.get(detectors));
    }
    settings.setValue(QStringLiteral("detectors/port-range-given"), detectors.portRangeGiven);
    settings.setValue(QStringLiteral("detectors/port-range-low"), detectors.portRangeLow);
    settings.setValue(QStringLiteral("detectors/port-range-high"), detectors.portRangeHigh);
    settings.setValue(QStringLiteral("strace/tz"), straceTz);
    if (straceOffsetMs) {
        settings.setValue(QStringLiteral("strace/offset-ms"), *straceOffsetMs);
    } else {
        settings.remove(QStringLiteral("strace/offset-ms"));
    }
}

bool AnalysisPreferences::operator==(const AnalysisPreferences& other) const {
    const bool sameThresholds = std::all_of(kFields.begin(), kFields.end(), [&](const ThresholdField& threshold) {
        return threshold.get(detectors) == threshold.get(other.detectors);
    });
    return os == other.os && sameThresholds && detectors.portRangeGiven == other.detectors.portRangeGiven &&
           detectors.portRangeLow == other.detectors.portRangeLow &&
           detectors.portRangeHigh == other.detectors.portRangeHigh && straceTz == other.straceTz &&
           straceOffsetMs == other.straceOffsetMs;
}

}  // namespace tcpscope::ui
