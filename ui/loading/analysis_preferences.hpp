#pragma once
#include <QSettings>
#include <QString>
#include <optional>
#include <span>

#include "detect/detector_options.hpp"
#include "loading/load_request.hpp"

namespace tcpscope::ui {

/// One numeric detector threshold: how the dialog shows it and where it is kept. `key` is the
/// tcpscope-cli flag without its dashes, and the settings key.
struct ThresholdField {
    const char* key;
    const char* label;
    const char* tooltip;
    double minimum;
    double maximum;
    int decimals;
    double (*get)(const DetectorOptions&);
    void (*set)(DetectorOptions&, double);
};

/// The thresholds of tcpscope-cli's "Detector thresholds" options other than --os and --port-range.
std::span<const ThresholdField> thresholdFields();

/// How the GUI analyses: the detector thresholds (the defaults of `os`, then the user's changes)
/// and how strace logs' clocks are put on the capture's. Kept in the settings between runs.
struct AnalysisPreferences {
    QString os = QStringLiteral("linux");
    DetectorOptions detectors;
    QString straceTz;                      ///< "+02:00"; empty: the best fit
    std::optional<double> straceOffsetMs;  ///< empty: measured from writes and segments

    /// Sets the request's detector options and strace clock (an invalid time zone is ignored).
    void applyTo(LoadRequest& request) const;
    static AnalysisPreferences load(const QSettings& settings);
    void save(QSettings& settings) const;
    bool operator==(const AnalysisPreferences& other) const;
};

}  // namespace tcpscope::ui
