"""Tiny pcap writer for TCP probes (Ethernet/IPv4/TCP), standard library only."""
import struct

BASE_SEC = 1700000000

def _csum(data: bytes) -> int:
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return (~s) & 0xFFFF

def _ip(a: str) -> bytes:
    return bytes(int(x) for x in a.split("."))

class Pcap:
    def __init__(self):
        self.frames = []  # (ts, bytes)

    def raw(self, ts, data):
        self.frames.append((ts, data))

    def tcp(self, ts, src, dst, sport, dport, seq, ack, flags, win, payload=0, opts=b""):
        """flags: string of letters S A F R P U; payload: int length or bytes."""
        if isinstance(payload, int):
            payload = b"x" * payload
        fl = 0
        for ch, bit in (("F", 1), ("S", 2), ("R", 4), ("P", 8), ("A", 16), ("U", 32)):
            if ch in flags:
                fl |= bit
        while len(opts) % 4:
            opts += b"\x01"
        off = (20 + len(opts)) // 4
        th = struct.pack("!HHIIBBHHH", sport, dport, seq & 0xFFFFFFFF, ack & 0xFFFFFFFF, off << 4, fl, win, 0, 0) + opts
        pseudo = _ip(src) + _ip(dst) + struct.pack("!BBH", 0, 6, len(th) + len(payload))
        c = _csum(pseudo + th + payload)
        th = th[:16] + struct.pack("!H", c) + th[18:]
        tot = 20 + len(th) + len(payload)
        iph = struct.pack("!BBHHHBBH4s4s", 0x45, 0, tot, 0, 0x4000, 64, 6, 0, _ip(src), _ip(dst))
        iph = iph[:10] + struct.pack("!H", _csum(iph)) + iph[12:]
        eth = b"\x02\0\0\0\0\x02" + b"\x02\0\0\0\0\x01" + b"\x08\x00"
        self.raw(ts, eth + iph + th + payload)

    def udp(self, ts, src, dst, sport, dport, payload=b"u"):
        uh = struct.pack("!HHHH", sport, dport, 8 + len(payload), 0)
        tot = 20 + 8 + len(payload)
        iph = struct.pack("!BBHHHBBH4s4s", 0x45, 0, tot, 0, 0x4000, 64, 17, 0, _ip(src), _ip(dst))
        iph = iph[:10] + struct.pack("!H", _csum(iph)) + iph[12:]
        self.raw(ts, b"\x02\0\0\0\0\x02\x02\0\0\0\0\x01\x08\x00" + iph + uh + payload)

    def write(self, path):
        with open(path, "wb") as f:
            f.write(struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 65535, 1))  # nanosecond pcap
            for ts, data in self.frames:
                total_ns = int(round(ts * 1e9))  # ts is relative to BASE_SEC (keeps float precision)
                sec, nsec = BASE_SEC + total_ns // 1000000000, total_ns % 1000000000
                f.write(struct.pack("<IIII", sec, nsec, len(data), len(data)))
                f.write(data)

def mss(v=1460):
    return struct.pack("!BBH", 2, 4, v)

def ws(shift):
    return b"\x01" + struct.pack("!BBB", 3, 3, shift)

class Conn:
    """Convenience: client C (10.0.0.1:40000) <-> server S (10.0.0.2:80)."""
    def __init__(self, pcap, cport=40000, sport=80, c="10.0.0.1", s="10.0.0.2"):
        self.p, self.c, self.s, self.cport, self.sport = pcap, c, s, cport, sport

    def c2s(self, ts, seq, ack, flags, win, payload=0, opts=b""):
        self.p.tcp(ts, self.c, self.s, self.cport, self.sport, seq, ack, flags, win, payload, opts)

    def s2c(self, ts, seq, ack, flags, win, payload=0, opts=b""):
        self.p.tcp(ts, self.s, self.c, self.sport, self.cport, seq, ack, flags, win, payload, opts)
