"""Client of the backlog-overflow scenario: CONNECTIONS non-blocking connects at once.

Each socket sends a small request as soon as it is connected and waits for
the reply. Prints, per connection, how long the connect and the whole
exchange took.

usage: backlog_client.py PORT CONNECTIONS
"""
import errno
import selectors
import socket
import sys
import time

REQUEST = b"GET /slow\n"
DEADLINE_SECONDS = 60


def main() -> None:
    port, connections = int(sys.argv[1]), int(sys.argv[2])
    selector = selectors.DefaultSelector()
    started = time.monotonic()
    connected_at = {}
    for index in range(connections):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        result = sock.connect_ex(("127.0.0.1", port))
        if result not in (0, errno.EINPROGRESS):
            raise OSError(result, f"connect {index}")
        selector.register(sock, selectors.EVENT_WRITE, index)
    remaining = connections
    while remaining and time.monotonic() - started < DEADLINE_SECONDS:
        for key, events in selector.select(timeout=1):
            sock, index = key.fileobj, key.data
            if events & selectors.EVENT_WRITE:
                error = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                if error:
                    print(f"connection {index:2d}: connect failed: {errno.errorcode.get(error, error)}")
                    selector.unregister(sock)
                    sock.close()
                    remaining -= 1
                    continue
                connected_at[index] = time.monotonic() - started
                sock.send(REQUEST)
                selector.modify(sock, selectors.EVENT_READ, index)
            else:
                reply = sock.recv(1024)
                print(f"connection {index:2d}: connected after {connected_at[index]:6.3f} s, "
                      f"reply {reply!r} after {time.monotonic() - started:6.3f} s", flush=True)
                selector.unregister(sock)
                sock.close()
                remaining -= 1
    if remaining:
        print(f"{remaining} connections unfinished after {DEADLINE_SECONDS} s")


if __name__ == "__main__":
    main()
