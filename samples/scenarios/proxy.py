"""Single-threaded epoll proxy (selectors) for the framed protocol.

For every frame it writes the header (128 bytes) and then the body (35 bytes)
as two separate send() calls, in both directions. Without TCP_NODELAY the
second, small write stays in the kernel (Nagle) until the peer ACKs the
first one, and the peer delays that ACK by ~40 ms because it waits for the
whole frame before it has anything to send.

usage: proxy.py LISTEN_PORT BACKEND_PORT CONNECTIONS [--nodelay] [--fork]
                [--listen-host=ADDRESS] [--backend-host=ADDRESS]
  --nodelay  set TCP_NODELAY on both sockets of every proxied connection
  --fork     fork one child process per client connection (the parent only
             accepts); each child runs the same epoll loop
  --listen-host, --backend-host  the addresses to listen on and to connect to
             (default 127.0.0.1 for both)
Exits after CONNECTIONS client connections have been served and closed.
"""
import os
import selectors
import socket
import sys

import frames

HOST = "127.0.0.1"
BACKEND_HOST = HOST  # --backend-host


class Pair:
    """One client connection and its backend connection."""

    def __init__(self, client: socket.socket, backend: socket.socket):
        self.client = client
        self.backend = backend
        self.pending = {client: bytearray(), backend: bytearray()}
        self.peer = {client: backend, backend: client}


def send_small(sock: socket.socket, data: bytes) -> None:
    # Frames are tiny and the socket buffers are empty, so a non-blocking
    # send() always takes the whole write; check it anyway.
    sent = sock.send(data)
    if sent != len(data):
        raise RuntimeError(f"short send: {sent} of {len(data)}")


def open_pair(client: socket.socket, backend_port: int, nodelay: bool) -> Pair:
    backend = socket.create_connection((BACKEND_HOST, backend_port))
    for sock in (client, backend):
        if nodelay:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.setblocking(False)
    return Pair(client, backend)


def forward(pair: Pair, source: socket.socket) -> bool:
    """Reads from `source`, forwards complete frames; returns False on EOF."""
    data = source.recv(65536)
    if not data:
        return False
    buffer = pair.pending[source]
    buffer += data
    destination = pair.peer[source]
    for header, body in frames.split_frames(buffer):
        send_small(destination, header)  # write 1: 128-byte header
        send_small(destination, body)  # write 2: small body, Nagle holds it
    return True


def run_pairs(selector: selectors.BaseSelector, listener, backend_port: int, nodelay: bool, connections: int) -> None:
    """The epoll loop: accepts (if `listener`) and proxies until `connections` are closed."""
    closed = 0
    while closed < connections:
        for key, _ in selector.select():
            if key.fileobj is listener:
                client, _ = listener.accept()
                pair = open_pair(client, backend_port, nodelay)
                selector.register(pair.client, selectors.EVENT_READ, pair)
                selector.register(pair.backend, selectors.EVENT_READ, pair)
                continue
            pair = key.data
            if pair.client.fileno() < 0:
                continue  # closed earlier in this batch of events
            if not forward(pair, key.fileobj):
                for sock in (pair.client, pair.backend):
                    selector.unregister(sock)
                    sock.close()
                closed += 1


def main() -> None:
    global BACKEND_HOST
    listen_port, backend_port, connections = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    nodelay = "--nodelay" in sys.argv[4:]
    fork_per_connection = "--fork" in sys.argv[4:]
    listen_host = HOST
    for option in sys.argv[4:]:
        if option.startswith("--listen-host="):
            listen_host = option.split("=", 1)[1]
        elif option.startswith("--backend-host="):
            BACKEND_HOST = option.split("=", 1)[1]

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((listen_host, listen_port))
    listener.listen(16)

    if not fork_per_connection:
        selector = selectors.DefaultSelector()  # epoll on Linux
        selector.register(listener, selectors.EVENT_READ)
        run_pairs(selector, listener, backend_port, nodelay, connections)
        return

    children = []
    for _ in range(connections):
        client, _ = listener.accept()
        pid = os.fork()
        if pid == 0:
            listener.close()
            selector = selectors.DefaultSelector()
            pair = open_pair(client, backend_port, nodelay)
            selector.register(pair.client, selectors.EVENT_READ, pair)
            selector.register(pair.backend, selectors.EVENT_READ, pair)
            run_pairs(selector, None, backend_port, nodelay, 1)
            os._exit(0)
        client.close()
        children.append(pid)
    for pid in children:
        os.waitpid(pid, 0)


if __name__ == "__main__":
    main()
