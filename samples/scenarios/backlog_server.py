"""Slow listener of the backlog-overflow scenario: listen(fd, 1), one accept per 200 ms.

With a backlog of 1 the accept queue holds at most 2 established connections;
while it is full the kernel drops incoming SYNs (and final ACKs), so clients
retransmit their SYNs after 1 s, 3 s, ...

usage: backlog_server.py PORT CONNECTIONS
"""
import socket
import sys
import time

ACCEPT_INTERVAL_SECONDS = 0.2


def main() -> None:
    port, connections = int(sys.argv[1]), int(sys.argv[2])
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(1)
    for _ in range(connections):
        time.sleep(ACCEPT_INTERVAL_SECONDS)
        conn, _ = listener.accept()
        with conn:
            conn.recv(1024)
            conn.sendall(b"hello\n")


if __name__ == "__main__":
    main()
