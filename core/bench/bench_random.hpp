#pragma once
#include <bit>
#include <cstdint>

namespace tcpscope::bench {

/// The generator's only source of randomness: splitmix64, so a seed gives the same capture bytes
/// on every machine and every run. Only integer arithmetic and exact double products are used
/// (no std:: distributions, whose results differ between standard libraries, and no libm).
class BenchRandom {
public:
    explicit BenchRandom(uint64_t seed) : state_(seed) {}

    /// The next 64 random bits.
    uint64_t next() {
        state_ += 0x9e3779b97f4a7c15ULL;
        uint64_t mixed = state_;
        mixed = (mixed ^ (mixed >> 30)) * 0xbf58476d1ce4e5b9ULL;
        mixed = (mixed ^ (mixed >> 27)) * 0x94d049bb133111ebULL;
        return mixed ^ (mixed >> 31);
    }

    /// A value in [0, bound), bound > 0 (the modulo bias is below 2^-32 for bounds under 2^32).
    uint64_t below(uint64_t bound) { return next() % bound; }

    /// A value in [low, high], low <= high.
    int64_t between(int64_t low, int64_t high) {
        return low + static_cast<int64_t>(below(static_cast<uint64_t>(high - low) + 1));
    }

    /// True with probability `perMillion` / 1,000,000.
    bool chance(uint32_t perMillion) { return below(1'000'000) < perMillion; }

    /// A uniform double in [0, 1).
    double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

    /// A roughly exponential value with the given mean (a geometric count of halvings plus a
    /// uniform fraction, scaled by ln 2), for think times and idle gaps.
    int64_t exponentialNs(int64_t meanNs) {
        const uint64_t bits = next();
        const int halvings = bits == 0 ? 63 : std::countr_zero(bits);
        const double value = (halvings + unit()) * 0.6931471805599453 * static_cast<double>(meanNs);
        return static_cast<int64_t>(value);
    }

    /// A new generator whose sequence is independent of this one's, for a part of the workload
    /// that must not shift when another part draws more or fewer numbers.
    BenchRandom fork() { return BenchRandom(next() ^ 0x6a09e667f3bcc909ULL); }

private:
    uint64_t state_;
};

}  // namespace tcpscope::bench
