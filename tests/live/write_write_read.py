#!/usr/bin/env python3
"""Real TCP traffic on loopback that stalls on Nagle's algorithm and the delayed ACK.

A server answers each request in two small writes (a header, then a body) with Nagle's algorithm
on; the client sends its next request only after reading the whole answer. The second write waits
in the server's kernel until the client's delayed ACK of the first (about 40 ms on Linux): the
write-write-read pattern that tcpscope reports as delayed_ack_stall.

    write_write_read.py PORT REQUESTS [--rate PER_SECOND] [--duration SECONDS] [--clients N]
                        [--reconnect-every R] [--long-clients L] [--host 127.0.0.1]

With --duration, it runs that long instead of REQUESTS requests, at --rate requests a second in all,
spread over --clients clients (each asks one request at a time on its connection, reconnecting every
R requests, 100 by default; the first L clients keep one connection for the whole run). It prints
one line at the end: requests, connections opened, seconds, and the slowest answer in milliseconds.
"""
import argparse
import socket
import threading
import time

HEADER = b"HDR:0010\n"
BODY = b"body-of-answer-0123\n"
REQUEST = b"GET /item\n"


def serve(listener):
    while True:
        try:
            connection, _ = listener.accept()
        except OSError:
            return
        threading.Thread(target=answer, args=(connection,), daemon=True).start()


def answer(connection):
    with connection:
        while True:
            request = connection.recv(4096)
            if not request:
                return
            # Two small writes with Nagle on: the second waits for the ACK of the first.
            connection.sendall(HEADER)
            connection.sendall(BODY)


def ask(sock):
    sock.sendall(REQUEST)
    expected = len(HEADER) + len(BODY)
    received = 0
    while received < expected:
        chunk = sock.recv(4096)
        if not chunk:
            raise RuntimeError("server closed the connection")
        received += len(chunk)


def client(options, start, index, results):
    """One client's requests: its share of REQUESTS or of the rate, one at a time."""
    requests = options.requests // options.clients + (1 if index < options.requests % options.clients else 0)
    rate = options.rate / options.clients
    slowest = 0.0
    done = 0
    connections = 0
    reconnect_every = 0 if index < options.long_clients else options.reconnect_every
    sock = None
    while True:
        if options.duration > 0:
            if time.monotonic() - start >= options.duration:
                break
        elif done >= requests:
            break
        if sock is None or (reconnect_every > 0 and done % reconnect_every == 0):
            if sock is not None:
                sock.close()
            sock = socket.create_connection((options.host, options.port))
            connections += 1
        began = time.monotonic()
        ask(sock)
        slowest = max(slowest, (time.monotonic() - began) * 1000)
        done += 1
        if rate > 0:
            pause = start + done / rate - time.monotonic()
            if pause > 0:
                time.sleep(pause)
    if sock is not None:
        sock.close()
    results.append((done, connections, slowest))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("requests", type=int)
    parser.add_argument("--rate", type=float, default=0.0, help="requests per second (0: back to back)")
    parser.add_argument("--duration", type=float, default=0.0, help="seconds to run (0: REQUESTS requests)")
    parser.add_argument("--clients", type=int, default=1, help="clients asking at the same time")
    parser.add_argument("--reconnect-every", type=int, default=100, help="requests per connection")
    parser.add_argument("--long-clients", type=int, default=0, help="clients that never reconnect")
    parser.add_argument("--host", default="127.0.0.1")
    options = parser.parse_args()

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((options.host, options.port))
    listener.listen(64)
    threading.Thread(target=serve, args=(listener,), daemon=True).start()

    start = time.monotonic()
    results = []
    clients = [threading.Thread(target=client, args=(options, start, index, results))
               for index in range(options.clients)]
    for thread in clients:
        thread.start()
    for thread in clients:
        thread.join()
    done = sum(count for count, _, _ in results)
    connections = sum(opened for _, opened, _ in results)
    slowest = max((worst for _, _, worst in results), default=0.0)
    listener.close()
    print(f"requests={done} connections={connections} seconds={time.monotonic() - start:.2f} "
          f"slowest_ms={slowest:.1f}", flush=True)


if __name__ == "__main__":
    main()
