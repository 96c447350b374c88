"""Random TCP conversations with loss, reordering, duplicates, window games, keep-alives and port reuse,
to compare tcpscope's analysis flags with tshark's on situations no recorded sample reaches.

usage: gen_stress.py FIRST_SEED END_SEED OUT_DIR [--no-window-full]
Writes OUT_DIR/fSEED.pcap for every seed in [FIRST_SEED, END_SEED); the same seed gives the same file."""
import random, sys
sys.path.insert(0, __import__("os").path.dirname(__file__))
from pcapgen import Pcap, Conn, mss, ws

def conversation(p, rnd, t, cport):
    k = Conn(p, cport=cport)
    isn_c = rnd.choice([rnd.randrange(1 << 32), (1 << 32) - rnd.randrange(1, 3000), 0, 1])
    isn_s = rnd.randrange(1 << 32)
    cws = rnd.choice([None, 0, 2, 7]); sws = rnd.choice([None, 0, 3, 7])
    send = {"c": k.c2s, "s": k.s2c}
    nxt = {"c": isn_c, "s": isn_s}; ackv = {"c": 0, "s": 0}; win = {"c": rnd.choice([0, 5, 100, 502, 64240]), "s": rnd.choice([0, 8, 100, 1000, 65160])}
    sent = {"c": [], "s": []}
    def emit(side, seq, flags, ln, w=None, opts=b""):
        nonlocal t
        t += rnd.choice([0.0, 0.0005, 0.001, 0.002, 0.004, 0.01, 0.03, 0.3])
        send[side](t, seq & 0xFFFFFFFF, ackv[side] & 0xFFFFFFFF, flags, win[side] if w is None else w, ln, opts)
    handshake = rnd.random() < 0.8
    if handshake:
        if rnd.random() < 0.9:
            emit("c", isn_c, "S", 0, opts=mss() + (ws(cws) if cws is not None else b""))
            if rnd.random() < 0.15: emit("c", isn_c, "S", 0, opts=mss())
        nxt["c"] = isn_c + 1; ackv["s"] = isn_c + 1
        emit("s", isn_s, "SA", 0, opts=mss() + (ws(sws) if sws is not None else b""))
        nxt["s"] = isn_s + 1; ackv["c"] = isn_s + 1
        emit("c", nxt["c"], "A", 0)
    else:
        ackv["c"] = nxt["s"]; ackv["s"] = nxt["c"]
    for _ in range(rnd.randrange(10, 80)):
        side = rnd.choice("cs"); other = "s" if side == "c" else "c"
        r = rnd.random()
        if r < 0.35:   # new data
            ln = rnd.choice([1, 2, 10, 100, 1000, 1448])
            seq = nxt[side]
            if rnd.random() < 0.1: seq += rnd.choice([1, 100, 1448])  # gap (lost before capture)
            sent[side].append((seq, ln))
            if rnd.random() > 0.08: emit(side, seq, "PA", ln)          # sometimes not captured at all
            nxt[side] = seq + ln
        elif r < 0.5 and sent[side]:   # retransmit / reorder an old segment
            seq, ln = rnd.choice(sent[side][-5:])
            emit(side, seq, "PA", ln)
        elif r < 0.75:  # ack (maybe partial, maybe beyond, maybe dup)
            choice = rnd.random()
            if choice < 0.6: ackv[side] = nxt[other]
            elif choice < 0.75 and sent[other]: ackv[side] = sent[other][-1][0]
            elif choice < 0.85: ackv[side] = nxt[other] + rnd.choice([1, 2, 500])
            if rnd.random() < 0.2: win[side] = rnd.choice([0, 0, 1, 5, 100, 1000, 65535])
            emit(side, nxt[side], "A", 0)
            if rnd.random() < 0.3: emit(side, nxt[side], "A", 0)
        elif r < 0.8:   # keep-alive / linux zero window probe
            emit(side, nxt[side] - 1, "A", rnd.choice([0, 1]))
        elif r < 0.85:  # 1-byte probe at nextseq
            emit(side, nxt[side], "A", 1)
            if rnd.random() < 0.5: nxt[side] += 1
        elif r < 0.9:   # window update
            win[side] = rnd.choice([0, 1, 100, 1000, 65535]); emit(side, nxt[side], "A", 0)
        elif r < 0.93:  # FIN
            emit(side, nxt[side], "FA", 0); nxt[side] += 1
        elif r < 0.95:  # RST
            emit(side, nxt[side] + rnd.choice([0, 0, 5000]), rnd.choice(["R", "RA"]), 0)
        elif r < 0.97:  # window-full data: exactly fill the peer's advertised window
            if NO_WINDOW_FULL: continue  # how seeds 0-149 were generated
            shift = {"c": sws, "s": cws}[side] if (handshake and cws is not None and sws is not None) else 0
            ln = (ackv[other] + (win[other] << (shift or 0)) - nxt[side]) & 0xFFFFFFFF
            if 0 < ln <= 9000:
                emit(side, nxt[side], "PA", ln); sent[side].append((nxt[side], ln)); nxt[side] += ln
        else:           # new SYN on the same tuple (port reuse or SYN retransmission)
            if rnd.random() < 0.5: isn_c = rnd.randrange(1 << 32)
            emit("c", isn_c, "S", 0, opts=mss()); nxt["c"] = isn_c + 1; ackv["s"] = isn_c + 1
    return t

def main(seed, path):
    rnd = random.Random(seed); p = Pcap(); t = 0.0
    for i in range(rnd.randrange(1, 4)):
        t = conversation(p, rnd, t, 30000 + rnd.randrange(3)) + 1.0
    p.frames.sort(key=lambda f: f[0])
    p.write(path)

NO_WINDOW_FULL = "--no-window-full" in sys.argv

if __name__ == "__main__":
    out_dir = sys.argv[3]
    for seed in range(int(sys.argv[1]), int(sys.argv[2])):
        main(seed, f"{out_dir}/f{seed:04d}.pcap")
