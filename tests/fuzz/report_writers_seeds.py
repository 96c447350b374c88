"""Seeds for fuzz_report_writers (run from the project root): a 2-byte big-endian capture length,
the capture, then a strace log. The crash's input class first: pcapng files whose packet comments,
section options and interface names hold bytes that are not UTF-8 (with NULs, control characters,
overlong forms, encoded surrogates, and the metacharacters of JSON, HTML, Markdown and Mermaid),
also far in the future and cut short; then the start of recorded samples with their strace logs."""
import struct

HOSTILE = [
    b"\x00\xfe\xca\x89\x01 binary",
    b"\xc0\xaf overlong slash, \xed\xa0\x80 lone surrogate, \xf4\x90\x80\x80 past U+10FFFF",
    b'quote " backslash \\ <script>alert(1)</script> & [link](http://x) `code` *bold* | cell #35; ; %% -->',
    b"\x1b[31mred\x1b[0m line\nbreak\r\ttab \x7f",
    b"cut short \xe2\x82",
]


def option(code, value):
    return struct.pack("<HH", code, len(value)) + value + b"\0" * (-len(value) % 4)


def block(kind, body):
    length = 12 + len(body)
    return struct.pack("<II", kind, length) + body + struct.pack("<I", length)


def section(options):
    body = struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1) + b"".join(options) + option(0, b"")
    return block(0x0A0D0D0A, body)


def interface(options):
    return block(1, struct.pack("<HHI", 1, 0, 262144) + b"".join(options) + option(0, b""))


def packet(units, frame, comment=None):
    body = struct.pack("<IIIII", 0, units >> 32, units & 0xFFFFFFFF, len(frame), len(frame))
    body += frame + b"\0" * (-len(frame) % 4)
    if comment is not None:
        body += option(1, comment) + option(0, b"")
    return block(6, body)


def tcp_frame(source_port, destination_port, seq, ack, flags, payload=b""):
    tcp = struct.pack(">HHIIBBHHH", source_port, destination_port, seq, ack, 5 << 4, flags, 65535, 0, 0) + payload
    ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp), 1, 0, 64, 6, 0, bytes([10, 0, 0, 1]),
                     bytes([10, 0, 0, 2]))
    if source_port != 40000:  # the server's packets go the other way
        ip = ip[:12] + ip[16:20] + ip[12:16]
    return b"\x02\0\0\0\0\x02\x02\0\0\0\0\x01\x08\x00" + ip + tcp


def conversation(start_us):
    """A handshake, a request, its retransmission after 1.2 s, the answer: a retransmission stall."""
    SYN, ACK, PSH, FIN = 0x02, 0x10, 0x08, 0x01
    steps = [
        (0, tcp_frame(40000, 80, 1000, 0, SYN)),
        (100, tcp_frame(80, 40000, 5000, 1001, SYN | ACK)),
        (200, tcp_frame(40000, 80, 1001, 5001, ACK)),
        (300, tcp_frame(40000, 80, 1001, 5001, PSH | ACK, b"GET / HTTP/1.1\r\n\r\n")),
        (1_200_300, tcp_frame(40000, 80, 1001, 5001, PSH | ACK, b"GET / HTTP/1.1\r\n\r\n")),
        (1_200_400, tcp_frame(80, 40000, 5001, 1019, PSH | ACK, b"HTTP/1.1 200 OK\r\n\r\n")),
        (1_200_500, tcp_frame(40000, 80, 1019, 5020, FIN | ACK)),
    ]
    return [(start_us + offset, frame) for offset, frame in steps]


def hostile_pcapng(start_us, cut=0):
    data = section([option(1, HOSTILE[0]), option(2, HOSTILE[1]), option(3, HOSTILE[2]), option(4, HOSTILE[3])])
    data += interface([option(2, HOSTILE[3]), option(3, HOSTILE[1])])
    for index, (units, frame) in enumerate(conversation(start_us)):
        data += packet(units, frame, HOSTILE[index % len(HOSTILE)])
    return data[: len(data) - cut] if cut else data


def seed(capture, strace=b""):
    return struct.pack(">H", len(capture)) + capture + strace


HOSTILE_STRACE = (
    b"12345 1700000000.000100 connect(3<TCP:[10.0.0.1:40000]>, {sa_family=AF_INET, sin_port=htons(80), "
    b'sin_addr=inet_addr("10.0.0.2")}, 16) = 0 <0.000050>\n'
    b'12345 1700000000.000300 write(3<TCP:[10.0.0.1:40000->10.0.0.2:80]>, "GET \xff\xfe \x00 <b>[x]", 18) = 18 '
    b"<0.000020>\n"
    b'12345 1700000001.200400 read(3<TCP:[10.0.0.1:40000->10.0.0.2:80]>, "\xc0\xaf\xed\xa0\x80;#`*|", 19) = 19 '
    b"<0.000010>\n"
    b"12345 1700000001.200500 close(3</tmp/\xe2\x82 file\x1b[0m>) = 0 <0.000005>\n"
)

NOT_STRACE = b"just some text\nthat is no strace log at all \xff\nlast line\n"


def first_records(data, count):
    """The file up to the end of its first `count` records (pcap) or blocks (pcapng): a small seed."""
    if data[:4] == b"\x0a\x0d\x0d\x0a":
        offset = 0
        for _ in range(count):
            offset += struct.unpack("<I", data[offset + 4:offset + 8])[0]
        return data[:offset]
    offset = 24
    for _ in range(count):
        offset += 16 + struct.unpack("<I", data[offset + 8:offset + 12])[0]
    return data[:offset]


def sample(capture_path, strace_path=None, strace_lines=0, records=60):
    capture = first_records(open(capture_path, "rb").read(), records)
    strace = b""
    if strace_path:
        # The calls on sockets, not the process's start-up.
        calls = [line for line in open(strace_path, "rb") if b"TCP" in line or b"socket(" in line]
        strace = b"".join(calls[:strace_lines])
    return seed(capture, strace)


SEEDS = {
    "hostile-comments": seed(hostile_pcapng(1_700_000_000_000_000)),
    "hostile-comments-strace": seed(hostile_pcapng(1_700_000_000_000_000), HOSTILE_STRACE),
    "hostile-comments-not-strace": seed(hostile_pcapng(1_700_000_000_000_000), NOT_STRACE),
    "hostile-comments-year-3000": seed(hostile_pcapng(32_503_680_000_000_000), HOSTILE_STRACE),
    "hostile-comments-cut-short": seed(hostile_pcapng(1_700_000_000_000_000, cut=37)),
    "sample-proxy-nagle": sample("samples/proxy-nagle.pcap", "samples/proxy-nagle.strace", 120),
    "sample-proxy-nagle-ttt": sample("samples/proxy-nagle-ttt.pcapng", "samples/proxy-nagle-ttt.strace", 120),
    "sample-backlog": sample("samples/backlog-overflow.pcap", records=80),
}

if __name__ == "__main__":
    for name, data in SEEDS.items():
        open(f"tests/fuzz/corpus/report_writers/seed-{name}", "wb").write(data)
