"""A listener with TCP_DEFER_ACCEPT, and clients that connect and stay silent.

With TCP_DEFER_ACCEPT the server's kernel keeps a connection in SYN_RECV,
ignoring the client's bare ACK, until the first data segment arrives or the
deferral runs out. The client's connect() has long returned: for the client
the connection is established. When the deferral ends the server sends its
SYN-ACK again; the client's ACK of that one completes the connection and
accept() returns a socket with nothing to read yet.

The clients (all started at once, 0.2 s apart):
  sends-at-1s    sends a request after 1 s, reads the reply, closes
  closes-at-3s   closes after 3 s without sending anything
  sends-at-12s   sends a request after 12 s, reads the reply, closes
  silent-20s     closes after 20 s without sending anything

usage: defer_accept.py server HOST PORT DEFER_SECONDS CONNECTIONS
       defer_accept.py clients HOST PORT
Both print what happened when, in seconds from their start.
"""
import socket
import sys
import threading
import time

STARTED = time.monotonic()
CLIENTS = [("sends-at-1s", 1.0, True), ("closes-at-3s", 3.0, False), ("sends-at-12s", 12.0, True),
           ("silent-20s", 20.0, False)]


def say(text: str) -> None:
    print(f"{time.monotonic() - STARTED:6.2f} s  {text}", flush=True)


def answer(conn: socket.socket, peer) -> None:
    with conn:
        conn.settimeout(30)
        request = conn.recv(1024)
        say(f"server: {peer[1]} sent {request!r}")
        if request:
            conn.sendall(b"hello " + request)
            conn.recv(1024)  # the client closes first


def serve(host: str, port: int, defer_seconds: int, connections: int) -> None:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_DEFER_ACCEPT, defer_seconds)
    listener.bind((host, port))
    listener.listen(16)
    workers = []
    for _ in range(connections):
        conn, peer = listener.accept()
        say(f"server: accepted {peer[1]}")
        worker = threading.Thread(target=answer, args=(conn, peer))
        worker.start()
        workers.append(worker)
    for worker in workers:
        worker.join()


def client(host: str, port: int, name: str, wait_seconds: float, sends: bool) -> None:
    with socket.create_connection((host, port)) as sock:
        say(f"{name}: connected from {sock.getsockname()[1]}")
        time.sleep(wait_seconds)
        if sends:
            sock.sendall(name.encode("ascii") + b"\n")
            say(f"{name}: reply {sock.recv(1024)!r}")
    say(f"{name}: closed")


def main() -> None:
    role, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if role == "server":
        serve(host, port, int(sys.argv[4]), int(sys.argv[5]))
        return
    threads = []
    for name, wait_seconds, sends in CLIENTS:
        thread = threading.Thread(target=client, args=(host, port, name, wait_seconds, sends))
        thread.start()
        threads.append(thread)
        time.sleep(0.2)
    for thread in threads:
        thread.join()


if __name__ == "__main__":
    main()
