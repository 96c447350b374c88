"""Seeds for fuzz_frame_analysis from recorded samples (run from the project root):
a link-type byte, then per frame a 2-byte length, the milliseconds since the frame before, the bytes."""
import struct, sys, os
LINKS = [1, 101, 113, 276, 0, 108, 228, 229]
def read_pcap(path):
    b = open(path, 'rb').read()
    magic = struct.unpack('<I', b[:4])[0]
    nano = magic == 0xa1b23c4d
    link = struct.unpack('<I', b[20:24])[0]
    off, frames = 24, []
    while off + 16 <= len(b):
        sec, frac, incl, orig = struct.unpack('<IIII', b[off:off+16])
        t = sec + frac / (1e9 if nano else 1e6)
        frames.append((t, b[off+16:off+16+incl]))
        off += 16 + incl
    return link, frames
def seed(path, out, limit):
    link, frames = read_pcap(path)
    data = bytes([LINKS.index(link)])
    last = frames[0][0]
    for t, f in frames[:limit]:
        ms = min(255, max(0, round((t - last) * 1000)))
        last = t
        data += struct.pack('>HB', len(f), ms) + f
    open(out, 'wb').write(data)
SEEDS = [("path-mtu", "samples/rtt/rtt-path-mtu-server.pcap", 60),
         ("bulk-cwnd", "samples/rtt/rtt-bulk-cwnd.pcap", 80),
         ("syn-dropped", "samples/rtt/rtt-syn-dropped-client.pcap", 30),
         ("duplicated-any", "samples/rtt/rtt-duplicated-any.pcap", 48),
         ("port-reuse", "samples/port-reuse-collision.pcap", 60),
         ("backlog", "samples/backlog-overflow.pcap", 80)]
if __name__ == "__main__":
    for name, path, limit in SEEDS:
        seed(path, f"tests/fuzz/corpus/frame_analysis/seed-{name}", limit)
