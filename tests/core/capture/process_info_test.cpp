// The process of each packet, as three kinds of files say it: ptcpdump's packet comments, Apple's
// process information blocks (pcapng), and macOS's pktap header (pcap). Files are built here byte by
// byte; each is read by the reader, then analysed by tcpscope-cli, whose JSON and text name the
// process of both ends of the connection. Bad process information is said once or ignored, and
// costs no packet.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "capture/capture_reader.hpp"
#include "capture/ptcpdump_comment.hpp"
#include "core/capture/capture_builder.hpp"
#include "app/cli/run_command.hpp"
#include "support/packet_builder.hpp"

using namespace tcpscope;
using namespace tcpscope::testing;

namespace {

constexpr uint64_t kStartUs = 1'700'000'000'000'000;
constexpr uint16_t kFlagsOption = 2;
constexpr uint16_t kProcessIndexOption = 0x8001;
constexpr uint16_t kEffectiveIndexOption = 0x8003;
constexpr uint32_t kOutbound = 2;
constexpr uint32_t kPktapLinkType = 258;

// A short HTTP-like exchange between 10.0.0.1:40000 (curl) and 10.0.0.2:80 (nginx), both on the
// capturing host: each frame and whether the client sent it.
struct ConversationFrame {
    Bytes bytes;
    bool fromClient = true;
};

std::vector<ConversationFrame> conversation() {
    const auto segment = [](bool fromClient, uint32_t seq, uint32_t ack, uint16_t flags, uint32_t payload) {
        test::SegmentSpec spec;
        if (!fromClient) {
            std::swap(spec.source, spec.destination);
            std::swap(spec.sourcePort, spec.destinationPort);
        }
        spec.seq = seq;
        spec.ack = ack;
        spec.flags = flags;
        spec.payloadLength = payload;
        return ConversationFrame{test::buildFrame(spec), fromClient};
    };
    using namespace tcpflag;
    return {segment(true, 100, 0, kSyn, 0),
            segment(false, 500, 101, kSyn | kAck, 0),
            segment(true, 101, 501, kAck, 0),
            segment(true, 101, 501, kPsh | kAck, 10),
            segment(false, 501, 111, kPsh | kAck, 20),
            segment(true, 111, 521, kAck, 0)};
}

const std::string kCurlComment = "PID: 4242\nCmd: /usr/bin/curl\nArgs: curl -s http://10.0.0.2/";
const std::string kCurlParentComment = "ParentPID: 4000\nParentCmd: /bin/bash\nParentArgs: bash";
const std::string kNginxComment = "PID: 80\nCmd: /usr/sbin/nginx\nArgs: nginx: worker process";
const std::string kNginxContainerComment =
    "ContainerName: web\nContainerId: 0123abcd\nContainerImage: nginx:1.25\nContainerLabels: ";
const std::string kNginxPodComment = "PodName: web-1\nPodNamespace: prod\nPodUID: 42\nPodLabels: \nPodAnnotations: ";

// The conversation as ptcpdump writes it: every frame outbound, with its sender's comments; frame 3
// carries a user's comment first, frame 2 a comment that only looks like ptcpdump's.
Bytes ptcpdumpCapture() {
    PcapngBuilder builder;
    builder.sectionHeader().interfaceDescription(linktype::kEthernet);
    const std::vector<ConversationFrame> frames = conversation();
    for (size_t i = 0; i < frames.size(); ++i) {
        std::vector<PcapngTestOption> options;
        if (i == 2) {
            options.push_back(PcapngTestOption::comment("PID: soon\nCmd: whoever"));
        } else if (frames[i].fromClient) {
            if (i == 3) {
                options.push_back(PcapngTestOption::comment("the request"));
            }
            options.push_back(PcapngTestOption::comment(kCurlComment));
            options.push_back(PcapngTestOption::comment(kCurlParentComment));
        } else {
            options.push_back(PcapngTestOption::comment(kNginxComment));
            options.push_back(PcapngTestOption::comment(kNginxContainerComment));
            options.push_back(PcapngTestOption::comment(kNginxPodComment));
        }
        options.push_back(builder.u32Option(kFlagsOption, kOutbound));
        builder.enhancedPacket(0, kStartUs + i * 1000, frames[i].bytes, options);
    }
    return builder.bytes();
}

Bytes uuidBytes() {
    Bytes uuid;
    for (uint8_t i = 0; i < 16; ++i) {
        uuid.push_back(i);
    }
    return uuid;
}

// The conversation as macOS's tcpdump writes it with process information blocks: 0 curl (on behalf
// of 2, Safari), 1 nginx.
Bytes processBlockCapture(bool bigEndian) {
    PcapngBuilder builder(bigEndian);
    builder.sectionHeader().interfaceDescription(linktype::kEthernet);
    builder.processInformation(4242, "curl", uuidBytes())
        .processInformation(80, "nginx")
        .processInformation(501, "Safari");
    const std::vector<ConversationFrame> frames = conversation();
    for (size_t i = 0; i < frames.size(); ++i) {
        std::vector<PcapngTestOption> options{builder.u32Option(kFlagsOption, kOutbound)};
        if (frames[i].fromClient) {
            options.push_back(builder.u32Option(kProcessIndexOption, 0));
            options.push_back(builder.u32Option(kEffectiveIndexOption, 2));
        } else {
            options.push_back(builder.u32Option(kProcessIndexOption, 1));
        }
        builder.enhancedPacket(0, kStartUs + i * 1000, frames[i].bytes, options);
    }
    return builder.bytes();
}

// xnu's struct pktap_header (108 bytes, little-endian) before an Ethernet frame.
Bytes pktapFrame(const Bytes& ethernet, int32_t pid, const std::string& command, uint32_t flags,
                 uint32_t headerLength = 108) {
    ByteWriter header(false);
    header.u32(headerLength);
    header.u32(1);  // a packet follows
    header.u32(linktype::kEthernet);
    header.append(std::string("en0") + std::string(21, '\0'));
    header.u32(flags);
    header.u32(2);  // AF_INET
    header.u32(14);
    header.u32(0);
    header.u32(static_cast<uint32_t>(pid));
    header.append(command + std::string(20 - command.size(), '\0'));
    header.u32(0);  // service class
    header.u16(6);  // interface type
    header.u16(0);  // interface unit
    header.u32(static_cast<uint32_t>(pid));
    header.append(command + std::string(20 - command.size(), '\0'));
    Bytes frame = header.bytes();
    frame.resize(std::max<size_t>(frame.size(), headerLength), 0);
    frame.insert(frame.end(), ethernet.begin(), ethernet.end());
    return frame;
}

Bytes pktapCapture() {
    PcapBuilder builder(PcapHeader{.linkType = kPktapLinkType});
    const std::vector<ConversationFrame> frames = conversation();
    for (size_t i = 0; i < frames.size(); ++i) {
        builder.record(1'700'000'000, static_cast<uint32_t>(i * 1000),
                       frames[i].fromClient ? pktapFrame(frames[i].bytes, 4242, "curl", 0x2)
                                            : pktapFrame(frames[i].bytes, 80, "nginx", 0x2));
    }
    return builder.bytes();
}

struct CliOutput {
    nlohmann::json json;
    std::string text;
};

// What tcpscope-cli analyze says of `bytes`, in JSON and as text.
CliOutput analyse(const std::string& name, const Bytes& bytes) {
    const std::string path = writeTempFile(name, bytes).string();
    const auto json = test::runCommand({TCPSCOPE_CLI, "analyze", path, "--format", "json"});
    INFO(json.err);
    REQUIRE(json.ok());
    const auto text = test::runCommand({TCPSCOPE_CLI, "analyze", path});
    REQUIRE(text.ok());
    return {nlohmann::json::parse(json.out), text.out};
}

}  // namespace

TEST_CASE("ptcpdump's comments give each packet its process, read once per process", "[process]") {
    auto reader = CaptureReader::openMemory("ptcpdump.pcapng", ptcpdumpCapture());
    std::vector<const PacketProcess*> addresses;
    std::vector<PacketCopy> packets;
    RawPacket packet;
    while (reader->next(packet)) {
        addresses.push_back(packet.process);
        packets.emplace_back();
        packets.back().comment = std::string(packet.comment);
        if (packet.process != nullptr) {
            packets.back().process = *packet.process;
        }
        packets.back().direction = packet.direction;
    }
    REQUIRE(packets.size() == 6);
    CHECK(reader->warnings().empty());
    REQUIRE(packets[0].process);
    const PacketProcess& curl = *packets[0].process;
    CHECK(curl.pid == 4242);
    CHECK(curl.command == "/usr/bin/curl");
    CHECK(curl.args == "curl -s http://10.0.0.2/");
    CHECK(curl.parentPid == 4000);
    CHECK(curl.parentCommand == "/bin/bash");
    CHECK(packets[0].direction == PacketDirection::Outbound);
    CHECK(addresses[5] == addresses[0]);         // the same comments: the same process, not another copy
    CHECK(packets[3].comment == "the request");  // a user's comment stays the packet's comment
    CHECK(packets[3].process == curl);
    CHECK_FALSE(packets[2].process);  // "PID: soon" is no pid: not ptcpdump's, only a comment
    CHECK(packets[2].comment == "PID: soon\nCmd: whoever");
    REQUIRE(packets[4].process);
    CHECK(packets[4].process->pid == 80);
    CHECK(packets[4].process->container == "web");
    CHECK(packets[4].process->pod == "prod/web-1");
}

TEST_CASE("ptcpdump's comments: the processes of both ends in the JSON and on the flow line", "[process][cli]") {
    const CliOutput output = analyse("ptcpdump.pcapng", ptcpdumpCapture());
    REQUIRE(output.json["flows"].size() == 1);
    const nlohmann::json& process = output.json["flows"][0]["process"];
    CHECK(process["client"]["pid"] == 4242);
    CHECK(process["client"]["command"] == "/usr/bin/curl");
    CHECK(process["client"]["args"] == "curl -s http://10.0.0.2/");
    CHECK(process["client"]["parent"] == nlohmann::json{{"pid", 4000}, {"command", "/bin/bash"}});
    CHECK(process["server"]["pid"] == 80);
    CHECK(process["server"]["command"] == "/usr/sbin/nginx");
    CHECK(process["server"]["container"] == "web");
    CHECK(process["server"]["pod"] == "prod/web-1");
    CHECK_FALSE(process["client"].contains("others"));
    CHECK(output.json["capture"]["packets"] == 6);
    CHECK(output.json["capture"]["tcp_packets"] == 6);
    // ptcpdump's comments on every packet are the process's, kept once; the other two stay comments.
    CHECK(output.json["capture"]["packet_comments"] == 2);
    CHECK_THAT(output.text, Catch::Contains("process: client curl (pid 4242), server nginx (pid 80)"));
}

TEST_CASE("process information blocks name each packet's process, in either byte order", "[process]") {
    for (const bool bigEndian : {false, true}) {
        CAPTURE(bigEndian);
        auto reader = CaptureReader::openMemory("blocks.pcapng", processBlockCapture(bigEndian));
        const std::vector<PacketCopy> packets = readAll(*reader);
        REQUIRE(packets.size() == 6);
        CHECK(reader->warnings().empty());
        REQUIRE(packets[0].process);
        CHECK(packets[0].process->pid == 4242);
        CHECK(packets[0].process->command == "curl");
        CHECK(packets[0].process->uuid == "000102030405060708090a0b0c0d0e0f");
        CHECK(packets[0].process->effectivePid == 501);
        CHECK(packets[0].process->effectiveCommand == "Safari");
        CHECK(packets[0].direction == PacketDirection::Outbound);
        REQUIRE(packets[1].process);
        CHECK(packets[1].process->pid == 80);
        CHECK(packets[1].process->command == "nginx");
        CHECK(packets[1].process->effectivePid == -1);
    }
}

TEST_CASE("process information blocks: the processes of both ends in the JSON", "[process][cli]") {
    const CliOutput output = analyse("blocks.pcapng", processBlockCapture(false));
    REQUIRE(output.json["flows"].size() == 1);
    const nlohmann::json& process = output.json["flows"][0]["process"];
    CHECK(process["client"] == nlohmann::json{{"pid", 4242},
                                              {"command", "curl"},
                                              {"uuid", "000102030405060708090a0b0c0d0e0f"},
                                              {"effective", {{"pid", 501}, {"command", "Safari"}}}});
    CHECK(process["server"] == nlohmann::json{{"pid", 80}, {"command", "nginx"}});
    CHECK_THAT(output.text, Catch::Contains("process: client curl (pid 4242), server nginx (pid 80)"));
}

TEST_CASE("bad process information blocks are said when a packet names them, and cost no packet", "[process]") {
    PcapngBuilder builder;
    builder.sectionHeader().interfaceDescription(linktype::kEthernet);
    builder.block(0x80000001, {});  // no room for a pid: kept as a block of no process, so 1 stays nginx
    builder.processInformation(80, "nginx");
    // An option that runs past its block: the pid before it is kept.
    const size_t cutOptionBlock = builder.bytes().size();
    ByteWriter cut(false);
    cut.u32(4242);
    cut.u16(2);
    cut.u16(200);
    cut.append(std::string("curl"));
    builder.block(0x80000001, cut.bytes());
    const std::vector<ConversationFrame> frames = conversation();
    for (size_t i = 0; i < frames.size(); ++i) {
        std::vector<PcapngTestOption> options{builder.u32Option(kFlagsOption, kOutbound)};
        if (i == 3) {
            options.push_back(builder.u32Option(kProcessIndexOption, 7));  // no such block
        } else if (i == 4) {
            options.push_back(builder.u32Option(kProcessIndexOption, 0));  // the one too short
        } else if (i == 5) {
            options.push_back({kProcessIndexOption, Bytes{1, 0}});  // an index of 2 bytes
        } else {
            options.push_back(builder.u32Option(kProcessIndexOption, frames[i].fromClient ? 2 : 1));
        }
        builder.enhancedPacket(0, kStartUs + i * 1000, frames[i].bytes, options);
    }
    const size_t cutShortBlock = builder.bytes().size();
    builder.processInformation(99, "cut short");
    Bytes bytes = builder.bytes();
    const size_t cutShortLength = bytes.size() - cutShortBlock;
    bytes.resize(bytes.size() - 6);  // the last block loses its end

    auto reader = CaptureReader::openMemory("bad-blocks.pcapng", bytes);
    const std::vector<PacketCopy> packets = readAll(*reader);
    REQUIRE(packets.size() == 6);
    CHECK(reader->error() == nullptr);
    REQUIRE(packets[1].process);
    CHECK(packets[1].process->command == "nginx");
    REQUIRE(packets[0].process);
    CHECK(packets[0].process->pid == 4242);
    CHECK(packets[0].process->command.empty());
    CHECK_FALSE(packets[3].process);
    CHECK_FALSE(packets[4].process);
    CHECK_FALSE(packets[5].process);
    std::vector<std::string> reasons;
    for (const InputProblem& problem : reader->warnings()) {
        CHECK(problem.file == "bad-blocks.pcapng");
        reasons.push_back(problem.reason);
    }
    // A bad block is said once for the reader: block 0, named by frame 4 after block 2, shares the line.
    REQUIRE(reasons.size() == 4);
    CHECK(reasons[0] == "packet names process information block 2 (at offset " + std::to_string(cutOptionBlock) +
                            "), which has an option that runs past its end (what comes before it is used) (reported "
                            "once)");
    CHECK_THAT(reasons[1], Catch::StartsWith("packet names process information block 7, but the section holds 3"));
    CHECK_THAT(reasons[2], Catch::StartsWith("process information block index option of 2 bytes, not 4"));
    CHECK_THAT(reasons[3], Catch::StartsWith("file ends " + std::to_string(cutShortLength - 6) +
                                             " bytes into a block of " + std::to_string(cutShortLength) + " bytes"));
    REQUIRE(reader->cutShort());
    CHECK(reader->cutShort()->recordOffset == cutShortBlock);
}

TEST_CASE("a block too short for a pid is said when a packet names it", "[process]") {
    PcapngBuilder builder;
    builder.sectionHeader().interfaceDescription(linktype::kEthernet);
    const size_t shortBlock = builder.bytes().size();
    builder.block(0x80000001, {});
    builder.enhancedPacket(0, kStartUs, conversation()[0].bytes,
                           {builder.u32Option(kFlagsOption, kOutbound), builder.u32Option(kProcessIndexOption, 0)});
    auto reader = CaptureReader::openMemory("short-block.pcapng", builder.bytes());
    const std::vector<PacketCopy> packets = readAll(*reader);
    REQUIRE(packets.size() == 1);
    CHECK_FALSE(packets[0].process);
    REQUIRE(reader->warnings().size() == 1);
    CHECK(reader->warnings()[0].offset == shortBlock + 12);
    CHECK(reader->warnings()[0].reason == "packet names process information block 0 (at offset " +
                                              std::to_string(shortBlock) +
                                              "), which is too short (12 bytes) to hold a process id (reported once)");
}

TEST_CASE("pktap frames give their process and are analysed as the frame inside", "[process]") {
    auto reader = CaptureReader::openMemory("pktap.pcap", pktapCapture());
    const std::vector<PacketCopy> packets = readAll(*reader);
    REQUIRE(packets.size() == 6);
    CHECK(packets[0].linkType == kPktapLinkType);
    REQUIRE(packets[0].process);
    CHECK(packets[0].process->pid == 4242);
    CHECK(packets[0].process->command == "curl");
    CHECK(packets[0].process->effectivePid == -1);  // the same process acted for itself
    CHECK(packets[0].direction == PacketDirection::Outbound);
    REQUIRE(packets[1].process);
    CHECK(packets[1].process->command == "nginx");

    const CliOutput output = analyse("pktap.pcap", pktapCapture());
    CHECK(output.json["capture"]["tcp_packets"] == 6);
    REQUIRE(output.json["flows"].size() == 1);
    const nlohmann::json& process = output.json["flows"][0]["process"];
    CHECK(process["client"] == nlohmann::json{{"pid", 4242}, {"command", "curl"}});
    CHECK(process["server"] == nlohmann::json{{"pid", 80}, {"command", "nginx"}});
}

TEST_CASE("a pktap header shorter than its fields is a malformed frame, and the others are read", "[process]") {
    PcapBuilder builder(PcapHeader{.linkType = kPktapLinkType});
    const std::vector<ConversationFrame> frames = conversation();
    for (size_t i = 0; i < frames.size(); ++i) {
        const uint32_t headerLength = i == 4 ? 60 : 108;
        builder.record(1'700'000'000, static_cast<uint32_t>(i * 1000),
                       pktapFrame(frames[i].bytes, frames[i].fromClient ? 4242 : 80,
                                  frames[i].fromClient ? "curl" : "nginx", 0x2, headerLength));
    }
    auto reader = CaptureReader::openMemory("bad-pktap.pcap", builder.bytes());
    const std::vector<PacketCopy> packets = readAll(*reader);
    REQUIRE(packets.size() == 6);
    CHECK_FALSE(packets[4].process);

    const CliOutput output = analyse("bad-pktap.pcap", builder.bytes());
    CHECK(output.json["capture"]["tcp_packets"] == 5);
    CHECK(output.json["capture"]["other_packets"]["malformed"] == 1);
    const nlohmann::json& process = output.json["flows"][0]["process"];
    CHECK(process["client"]["command"] == "curl");
    CHECK(process["server"]["command"] == "nginx");  // from the SYN-ACK
}

TEST_CASE("a capture without process information writes no process", "[process][cli]") {
    PcapngBuilder builder;
    builder.sectionHeader().interfaceDescription(linktype::kEthernet);
    const std::vector<ConversationFrame> frames = conversation();
    for (size_t i = 0; i < frames.size(); ++i) {
        builder.enhancedPacket(0, kStartUs + i * 1000, frames[i].bytes, 0, i == 0 ? "just a note" : "");
    }
    const CliOutput output = analyse("plain.pcapng", builder.bytes());
    REQUIRE(output.json["flows"].size() == 1);
    CHECK_FALSE(output.json["flows"][0].contains("process"));
    CHECK_THAT(output.text, !Catch::Contains("process:"));
}

TEST_CASE("tcpscope-cli record's comments: thread and cgroup beside ptcpdump's keys", "[process]") {
    PacketProcess process;
    REQUIRE(readPtcpdumpComment("PID: 812\nThreadId: 815\nCmd: labproxy\nArgs: python3 proxy.py 3307\n"
                                "ParentPID: 1\nParentCmd: systemd\nCgroup: /system.slice/labproxy.service",
                                process));
    CHECK(process.pid == 812);
    CHECK(process.thread == 815);
    CHECK(process.command == "labproxy");
    CHECK(process.args == "python3 proxy.py 3307");
    CHECK(process.parentPid == 1);
    CHECK(process.parentCommand == "systemd");
    CHECK(process.cgroup == "/system.slice/labproxy.service");
}
