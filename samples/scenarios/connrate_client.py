"""Client of the backlog-connrate scenario: RATE new connections a second for SECONDS.

A connection-rate benchmark: it starts a non-blocking connect every 1/RATE
s, whatever the earlier ones are doing, sends a one-line request as soon as
a connection is up, reads the answer and closes. A connection still not up
GIVE_UP_SECONDS after its start is abandoned (closed). At the end it prints
how many connections were up within 0.1 s, within 1.1 s, ..., and the rate
achieved.

usage: connrate_client.py HOST PORT RATE SECONDS GIVE_UP_SECONDS
"""
import errno
import selectors
import socket
import sys
import time

REQUEST = b"GET /\n"


def main() -> None:
    host, port = sys.argv[1], int(sys.argv[2])
    rate, seconds, give_up_seconds = int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
    total = int(rate * seconds)
    selector = selectors.DefaultSelector()
    started = time.monotonic()
    begun, open_count, answered, abandoned = 0, 0, 0, 0
    connect_seconds = []
    failed = {}
    start_of = {}
    while begun < total or open_count:
        now = time.monotonic()
        while begun < total and started + begun / rate <= now:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setblocking(False)
            result = sock.connect_ex((host, port))
            if result not in (0, errno.EINPROGRESS):
                raise OSError(result, f"connect {begun}")
            start_of[sock] = now
            selector.register(sock, selectors.EVENT_WRITE)
            begun += 1
            open_count += 1
        timeout = max(0.0, started + begun / rate - time.monotonic()) if begun < total else 0.05
        for key, events in selector.select(timeout=timeout):
            sock = key.fileobj
            if events & selectors.EVENT_WRITE:
                error = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                if error:
                    name = errno.errorcode.get(error, str(error))
                    failed[name] = failed.get(name, 0) + 1
                    selector.unregister(sock)
                    del start_of[sock]
                    sock.close()
                    open_count -= 1
                    continue
                connect_seconds.append(time.monotonic() - start_of[sock])
                sock.send(REQUEST)
                selector.modify(sock, selectors.EVENT_READ)
                continue
            try:
                sock.recv(64)
            except ConnectionError:
                pass
            answered += 1
            selector.unregister(sock)
            del start_of[sock]
            sock.close()
            open_count -= 1
        now = time.monotonic()
        for sock in [s for s, start in start_of.items() if now - start > give_up_seconds]:
            selector.unregister(sock)
            del start_of[sock]
            sock.close()
            abandoned += 1
            open_count -= 1
    elapsed = time.monotonic() - started
    print(f"{begun} connections started in {seconds:g} s ({rate}/s), {answered} answered, {abandoned} abandoned "
          f"after {give_up_seconds:g} s, {sum(failed.values())} failed {failed or ''}, all done after {elapsed:.2f} s: "
          f"{answered / elapsed:.0f} answered/s")
    buckets = {}
    for wait in connect_seconds:
        bucket = int(wait)  # 0: up within the first second, 1: after one SYN timeout, ...
        buckets[bucket] = buckets.get(bucket, 0) + 1
    print("connections up after: " + ", ".join(f"{count} in [{bucket}, {bucket + 1}) s"
                                               for bucket, count in sorted(buckets.items())))


if __name__ == "__main__":
    main()
