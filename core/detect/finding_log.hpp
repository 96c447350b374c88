#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "detect/host_population.hpp"
#include "finding/finding.hpp"
#include "finding/finding_list.hpp"

namespace tcpscope {

/// A detector that keeps what it found in its own typed records and writes a finding's summary
/// and evidence from them only when the finding is read, instead of rebuilding JSON on every
/// change (a finding may grow with every packet of a flow).
class FindingAuthor {
public:
    /// How much of a finding describe() writes.
    enum class Detail : uint8_t {
        Full,           ///< everything, the evidence too
        ButEvidence,    ///< its counts, summary, frames and spans; the evidence may be left as it was
    };
    /// Writes the parts of `finding` this author keeps (summary, spans, evidence...) from its record
    /// `record`, the number given to FindingLog::add. The log may describe two findings at once on
    /// two threads (of this author or another): describe only reads the author's state.
    virtual void describe(uint32_t record, Finding& finding, Detail detail) const = 0;
    /// Writes only the cheap parts of what describe() writes: the finding's duration, severity and
    /// whether a stall of it is going on, which a report reads for every flow before it writes the
    /// findings, and a live capture's listener at every change (describe() writes them too).
    virtual void measure(uint32_t record, Finding& finding) const = 0;

protected:
    FindingAuthor() = default;
    FindingAuthor(const FindingAuthor&) = default;
    FindingAuthor& operator=(const FindingAuthor&) = default;
    ~FindingAuthor() = default;
};

/// The findings a FindingLog holds, by id: in chunks that never move (a finding's reference stays
/// valid while the log grows, and growing never holds two copies), in the spill file while a
/// ChunkSpill is on (W1 at 100 M packets makes about 830,000 findings, 320 MB).
using FindingStore = FindingChunks;

/// The findings of one analysis, in the order they were first made. A detector adds a finding
/// as soon as it is sure of it (so a live capture shows it at once) and may keep growing it
/// (more stalls on the same flow, more time lost), telling the log each time. A finding with an
/// author is described again only when it is read (all(), release()) after a change, and, for a
/// listener, at its first change and whenever its changes since it was added reach a power of two;
/// at its other changes the listener hears it measured (FindingAuthor::measure), so its duration
/// and whether it is going on are always current.
class FindingLog {
public:
    /// Called with a finding when it is added (isNew) or has changed.
    using Listener = std::function<void(const Finding& finding, bool isNew)>;

    /// Stores `finding`, gives it its id, and tells the listener. Returns the id. With an
    /// `author`, the finding is described by author->describe(record, ...) whenever it is read
    /// after a change; the author must outlive every read of the log.
    uint32_t add(Finding finding, const FindingAuthor* author = nullptr, uint32_t record = 0);
    /// The finding with `id`, to be changed in place; call changed(id) afterwards.
    Finding& edit(uint32_t id) { return findings_[id]; }
    /// Tells the log (and the listener) that finding `id` has changed.
    void changed(uint32_t id);

    /// Stores a finding that only the capture clock shows so far (a stall still going on that no
    /// packet has ended: onClock), marked provisional and ongoing, and tells the listener. A packet
    /// later confirms it (confirm) or shows it was none (withdraw). Returns its id.
    uint32_t addProvisional(Finding finding);
    /// Makes provisional finding `id` the finding add() would have made here (`finding`, with its
    /// `author` and `record` as for add()), keeping its id; among the released findings it takes
    /// the place add() would have given it. As after add(), the caller completes it and then calls
    /// changed(id).
    void confirm(uint32_t id, Finding finding, const FindingAuthor* author = nullptr, uint32_t record = 0);
    /// Takes back provisional finding `id`: it stays in all() marked withdrawn until release().
    void withdraw(uint32_t id);
    [[nodiscard]] bool isProvisional(uint32_t id) const { return findings_[id].provisional; }
    /// Whether finding `id` was withdrawn (read without describing anything, unlike all()).
    [[nodiscard]] bool isWithdrawn(uint32_t id) const { return findings_[id].withdrawn; }

    /// Every finding so far, in the order first made, each described from its author's records as
    /// they are now; during a live capture also the provisional and withdrawn ones
    /// (Finding::provisional, Finding::withdrawn).
    [[nodiscard]] const FindingStore& all() const;
    /// How many findings so far (provisional and withdrawn ones included): their ids are 0 to size() - 1.
    [[nodiscard]] size_t size() const { return findings_.size(); }
    /// As all(), but the evidence of a finding changed since it was last read by all() is left as
    /// it was then (empty if never): its counts, impact, summary, frames and spans are current.
    /// Building the evidence is most of the cost of describing a finding; a live capture's records
    /// read its findings every second and send the evidence only with a finding's last revision.
    [[nodiscard]] const FindingStore& allButEvidence() const;
    /// Finding `id` as allButEvidence() gives it, describing no other finding.
    [[nodiscard]] const Finding& butEvidence(uint32_t id) const;
    /// Takes the findings out of the log, described as they are now: those still provisional are
    /// withdrawn (the listener hears it), the withdrawn ones left out, and the rest in the order
    /// add() or confirm() made them (so a live capture's findings come out as the analysis of its
    /// file gives them), ids renumbered.
    FindingList release();
    /// As release() for an analysis that made no provisional finding (a file's), but each finding
    /// with an author is only measured (FindingAuthor::measure: duration and severity); its summary,
    /// frames, spans and evidence are written later, one finding at a time, by describeReleased(). All of
    /// them at once take several times the memory of the authors' records (W1: 260 MiB).
    FindingList releaseMeasured();
    /// Whether `finding`, from releaseMeasured(), is still to be described.
    [[nodiscard]] bool describesLater(const Finding& finding) const { return authors_[finding.id].author != nullptr; }
    /// Writes the summary, frames, spans and evidence of `finding` (a copy of one from releaseMeasured()),
    /// as release() would have (all but the evidence with Detail::ButEvidence); like describe(), on
    /// any thread. The authors must still live.
    void describeReleased(Finding& finding, FindingAuthor::Detail detail = FindingAuthor::Detail::Full) const;
    void setListener(Listener listener) { listener_ = std::move(listener); }

    /// Keeps a population series a detector hands out when the input ends (for charts).
    void addPopulation(HostPopulation population) { populations_.push_back(std::move(population)); }
    /// Makes room for `more` series at once, before a detector hands out its many: the series of
    /// a million hosts then take their size, not up to twice it.
    void reservePopulations(size_t more) { populations_.reserve(populations_.size() + more); }
    /// Takes the population series out of the log.
    std::vector<HostPopulation> releasePopulations() { return std::move(populations_); }

private:
    struct Authorship {
        const FindingAuthor* author = nullptr;
        uint32_t record = 0;
        uint32_t changes = 0;         // since the finding was added
        bool stale = false;           // changed since it was last described (listed in stale_)
        bool evidenceStale = false;   // described since without its evidence (listed in evidenceStale_)
    };

    // The findings taken out of the log as they are, in id order.
    FindingList takeFindings();
    void describe(uint32_t id) const;
    void describeStale(FindingAuthor::Detail detail) const;
    // Frees what a finding with an author holds only once described (its evidence: null until then).
    static void holdUndescribed(Finding& finding);

    // Reading a finding describes it first: the log is a view of the authors' records, so that
    // is not a change a reader can see, and a const reader (a live snapshot) may do it.
    mutable FindingStore findings_;
    mutable ChunkedStore<Authorship, 4096> authors_;  // [finding id]
    mutable std::vector<uint32_t> stale_;      // ids of authored findings changed since described
    mutable std::vector<uint32_t> evidenceStale_;  // ids described without their evidence since changed
    std::vector<uint32_t> madeOrder_;  // ids in the order add() or confirm() made them, once a provisional one came
    bool hadProvisional_ = false;
    Listener listener_;
    std::vector<HostPopulation> populations_;
};

}  // namespace tcpscope
