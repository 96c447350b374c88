"""Job server of the jobs-port-exhaustion scenario: one job per connection.

It reads the job line, answers with one line, and closes only after the
client has closed, so every TIME_WAIT stays on the CLIENT side. One
thread, non-blocking sockets: it keeps up with thousands of connections a
second.

usage: job_server.py HOST PORT CONNECTIONS
"""
import selectors
import socket
import sys


def main() -> None:
    host, port, connections = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, port))
    listener.listen(4096)
    listener.setblocking(False)
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ, None)
    answered = set()
    closed = 0
    while closed < connections:
        for key, _ in selector.select():
            if key.data is None:
                try:
                    conn, _ = listener.accept()
                except BlockingIOError:
                    continue
                conn.setblocking(False)
                selector.register(conn, selectors.EVENT_READ, conn.fileno())
                continue
            conn = key.fileobj
            data = conn.recv(1024)
            if data and conn not in answered:
                conn.send(b"done " + data.split()[-1] + b"\n")
                answered.add(conn)
            elif not data:  # the client's FIN: close second
                selector.unregister(conn)
                answered.discard(conn)
                conn.close()
                closed += 1


if __name__ == "__main__":
    main()
