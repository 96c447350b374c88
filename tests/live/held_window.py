#!/usr/bin/env python3
"""Real TCP traffic on loopback whose receive window stays closed for a while.

A server with a small receive buffer accepts one connection and does not read from it; the client
sends until its socket will take no more, so the server's kernel advertises a zero window and the
client's kernel probes it, backing off (about 0.2, 0.4, 0.8, 1.6, 3.2 s apart). After HOLD seconds
the server reads everything (the window opens again), and both close: tcpscope reports one
zero_window_stall of about HOLD + 0.5 seconds, shown as ongoing while the window is still closed.

    held_window.py PORT HOLD_SECONDS [--host 127.0.0.1]

It prints one line when the window is closed (`closed`, once the client's send has blocked for a
second) and one at the end: bytes sent and the seconds the server held its window closed.
"""
import argparse
import socket
import threading
import time

RECEIVE_BUFFER = 4096
CHUNK = b"x" * 1024


def serve(listener, hold_seconds, closed, result):
    connection, _ = listener.accept()
    with connection:
        closed.wait(10)
        time.sleep(hold_seconds)
        received = 0
        connection.settimeout(0.3)  # the client sends nothing more once its buffer has drained
        while True:
            try:
                data = connection.recv(65536)
            except socket.timeout:
                break
            if not data:
                break
            received += len(data)
        result.append(received)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("hold", type=float, help="seconds the server keeps its window closed")
    parser.add_argument("--host", default="127.0.0.1")
    options = parser.parse_args()

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Set before listen(): accepted sockets inherit it, and the window is scaled from it.
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)
    listener.bind((options.host, options.port))
    listener.listen(1)
    closed = threading.Event()
    result = []
    server = threading.Thread(target=serve, args=(listener, options.hold, closed, result))
    server.start()

    client = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    client.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, RECEIVE_BUFFER)
    # No Nagle: its wait for the delayed ACK would be a delayed_ack_stall beside the zero window.
    client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    client.connect((options.host, options.port))
    client.setblocking(False)
    sent = 0
    idle_since = None
    # Send until the socket has taken nothing for a second: the peer's window is closed (it shrinks
    # for about half a second first, the kernel sending into what is left of it) and our send
    # buffer is full.
    while True:
        try:
            sent += client.send(CHUNK)
            idle_since = None
        except BlockingIOError:
            if idle_since is None:
                idle_since = time.monotonic()
            elif time.monotonic() - idle_since > 1.0:
                break
            time.sleep(0.005)
    print("closed", flush=True)
    began = time.monotonic()
    closed.set()
    server.join()
    held = time.monotonic() - began
    client.close()
    listener.close()
    print(f"sent={sent} received={result[0] if result else 0} held_seconds={held:.2f}", flush=True)


if __name__ == "__main__":
    main()
