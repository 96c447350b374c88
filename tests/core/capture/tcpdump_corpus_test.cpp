// Reads every capture of tcpdump's test suite, many of them deliberately malformed, and checks
// that nothing crashes or hangs, and that where libpcap reads a file without trouble, we see
// the same packets.
#include <pcap/pcap.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>

#include "capture/capture_reader.hpp"

using namespace tcpscope;

namespace {

struct LibpcapPacket {
    int64_t tsNs;
    uint32_t capturedLength;
    uint32_t originalLength;
};

/// The packets libpcap reads from `path`, or nothing if libpcap reports any error.
std::optional<std::vector<LibpcapPacket>> readWithLibpcap(const std::string& path) {
    char message[PCAP_ERRBUF_SIZE];
    pcap_t* handle = pcap_open_offline_with_tstamp_precision(path.c_str(), PCAP_TSTAMP_PRECISION_NANO, message);
    if (handle == nullptr) {
        return std::nullopt;
    }
    std::vector<LibpcapPacket> packets;
    pcap_pkthdr* header = nullptr;
    const u_char* data = nullptr;
    int result = 0;
    while ((result = pcap_next_ex(handle, &header, &data)) == 1) {
        // libpcap reads the 32-bit seconds and fraction as signed; the format (and we) read them
        // unsigned, so that times after 2038 work.
        constexpr int64_t kWrap = int64_t{1} << 32;
        const int64_t seconds = header->ts.tv_sec < 0 ? header->ts.tv_sec + kWrap : header->ts.tv_sec;
        const int64_t fraction = header->ts.tv_usec < 0 ? header->ts.tv_usec + kWrap : header->ts.tv_usec;
        packets.push_back({seconds * 1'000'000'000 + fraction, header->caplen, header->len});
    }
    pcap_close(handle);
    if (result != PCAP_ERROR_BREAK) {
        return std::nullopt;
    }
    return packets;
}

}  // namespace

// Hidden from the test list: its ctest runs it through tests/with_public_captures.sh, which finds
// the captures (scripts/fetch-public-captures.sh) or reports the test skipped.
TEST_CASE("tcpdump's test captures are all read without a crash", "[.corpus]") {
    const char* given = std::getenv("TCPSCOPE_PUBLIC_CAPTURES");
    REQUIRE(given != nullptr);
    const std::filesystem::path folder(given);
    REQUIRE(std::filesystem::is_directory(folder));
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
        if (entry.is_regular_file()) {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() > 100);

    size_t clean = 0;
    size_t withWarnings = 0;
    size_t withErrors = 0;
    size_t notOpened = 0;
    size_t packetCount = 0;
    size_t comparedWithLibpcap = 0;
    std::vector<std::string> differences;
    for (const auto& file : files) {
        std::vector<LibpcapPacket> ours;
        std::unique_ptr<CaptureReader> reader;
        try {
            reader = CaptureReader::open(file.string());
        } catch (const CaptureError& error) {
            ++notOpened;
            ++withErrors;
            UNSCOPED_INFO(error.what());
            continue;
        }
        RawPacket packet;
        uint64_t checksum = 0;
        while (reader->next(packet)) {
            for (uint32_t i = 0; i < packet.capturedLength; ++i) {
                checksum += packet.data[i];
            }
            ours.push_back({packet.tsNs, packet.capturedLength, packet.originalLength});
        }
        (void)checksum;
        packetCount += ours.size();
        if (reader->error() != nullptr) {
            ++withErrors;
        } else if (!reader->warnings().empty()) {
            ++withWarnings;
        } else {
            ++clean;
        }
        if (reader->error() != nullptr) {
            continue;  // libpcap and we may legitimately part ways on a damaged file
        }
        const auto theirs = readWithLibpcap(file.string());
        if (!theirs) {
            continue;
        }
        ++comparedWithLibpcap;
        // libpcap cuts records longer than the snapshot length; we keep every byte in the file,
        // so captured lengths are compared only where libpcap left them whole.
        std::string difference;
        if (theirs->size() != ours.size()) {
            difference = std::to_string(ours.size()) + " packets, libpcap " + std::to_string(theirs->size());
        }
        for (size_t i = 0; difference.empty() && i < ours.size(); ++i) {
            const LibpcapPacket& their = (*theirs)[i];
            if (ours[i].tsNs != their.tsNs || ours[i].originalLength != their.originalLength ||
                ours[i].capturedLength < their.capturedLength) {
                difference = "packet " + std::to_string(i) + ": ts " + std::to_string(ours[i].tsNs) + " caplen " +
                             std::to_string(ours[i].capturedLength) + " len " + std::to_string(ours[i].originalLength) +
                             ", libpcap ts " + std::to_string(their.tsNs) + " caplen " +
                             std::to_string(their.capturedLength) + " len " + std::to_string(their.originalLength);
            }
        }
        if (!difference.empty()) {
            differences.push_back(file.filename().string() + ": " + difference);
        }
    }
    std::cout << "tcpdump captures: " << files.size() << " files, " << clean << " clean, " << withWarnings
              << " with warnings, " << withErrors << " with errors (" << notOpened << " not opened), " << packetCount
              << " packets; " << comparedWithLibpcap << " compared with libpcap, " << differences.size() << " differ\n";
    for (const auto& name : differences) {
        std::cout << "  differs from libpcap: " << name << "\n";
    }
    CHECK(differences.empty());
}
