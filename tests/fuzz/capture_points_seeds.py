"""Seeds for fuzz_capture_points from recorded samples (run from the project root): a link-type byte,
the second point's clock offset (signed, 16 ms units) and drift (signed, 10 ppm units), then per frame
a 2-byte length, the milliseconds since the frame before, where it was seen (bit 0: not at the first
point, bit 1: not at the second, bits 2-7: milliseconds the second point saw it late), the bytes."""
import struct
from frame_analysis_seeds import LINKS, read_pcap

def seed(path, out, limit, offset_units, drift_units, where_of):
    link, frames = read_pcap(path)
    data = bytes([LINKS.index(link)]) + struct.pack('bb', offset_units, drift_units)
    last = frames[0][0]
    for i, (t, f) in enumerate(frames[:limit]):
        ms = min(255, max(0, round((t - last) * 1000)))
        last = t
        data += struct.pack('>HBB', len(f), ms, where_of(i)) + f
    open(out, 'wb').write(data)

if __name__ == "__main__":
    both_late_3ms = lambda i: 3 << 2               # every frame at both points, the second 3 ms later
    every_fifth_missed = lambda i: 2 if i % 5 == 4 else (5 << 2)  # the second misses one in five
    one_way = lambda i: 0 if i % 2 == 0 else 2     # the second sees only every other frame
    for name, path, limit, offset, drift, where in [
            ("nagle-proxy", "samples/rtt/rtt-nagle-proxy-client.pcap", 60, 46, 5, both_late_3ms),
            ("syn-dropped", "samples/rtt/rtt-syn-dropped-client.pcap", 30, -120, 0, every_fifth_missed),
            ("path-mtu", "samples/rtt/rtt-path-mtu-server.pcap", 60, 3, -5, one_way),
            ("port-reuse", "samples/port-reuse-collision.pcap", 60, 100, 1, both_late_3ms)]:
        seed(path, f"tests/fuzz/corpus/capture_points/seed-{name}", limit, offset, drift, where)
