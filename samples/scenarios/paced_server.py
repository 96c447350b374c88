"""Listener of the backlog-connrate scenario: it accepts at most RATE connections a second.

A server whose accept loop does a fixed amount of work per connection: it
calls listen(fd, BACKLOG) and accepts no faster than RATE a second. Each
accepted connection gets its one-line answer as soon as its request is in,
and the server then closes. Under a higher connection rate the accept queue
(BACKLOG + 1 entries) stays full, and the kernel drops the SYNs that find it
full: their clients wait for their SYN timer.

usage: paced_server.py HOST PORT BACKLOG RATE CONNECTIONS IDLE_SECONDS
(it stops after CONNECTIONS connections, or after IDLE_SECONDS without one)
"""
import selectors
import socket
import sys
import time


def main() -> None:
    host, port = sys.argv[1], int(sys.argv[2])
    backlog, rate, connections, idle_seconds = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6])
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, port))
    listener.listen(backlog)
    listener.setblocking(False)
    selector = selectors.DefaultSelector()
    accepted = 0
    started = last_accept = next_accept = time.monotonic()
    listening = False
    while accepted < connections and time.monotonic() - last_accept < idle_seconds:
        now = time.monotonic()
        # the listener is watched only when the pace allows the next accept
        if now >= next_accept and not listening:
            selector.register(listener, selectors.EVENT_READ)
            listening = True
        timeout = 1.0 if listening else next_accept - now
        for key, _ in selector.select(timeout=timeout):
            if key.fileobj is listener:
                try:
                    conn, _ = listener.accept()
                except BlockingIOError:
                    continue
                accepted += 1
                last_accept = time.monotonic()
                # on schedule while connections wait; after an idle spell no accepts are saved up
                next_accept = max(next_accept + 1 / rate, last_accept)
                selector.unregister(listener)
                listening = False
                conn.setblocking(False)
                selector.register(conn, selectors.EVENT_READ)
                continue
            conn = key.fileobj
            try:
                if conn.recv(1024):
                    conn.send(b"hello\n")
            except ConnectionError:
                pass
            selector.unregister(conn)
            conn.close()
    print(f"{accepted} connections accepted in {last_accept - started:.2f} s")


if __name__ == "__main__":
    main()
