"""Server of the churn scenario: one short request/reply per connection.

It answers, then waits for the client to close first and only then closes,
so the TIME_WAIT state stays on the CLIENT side.

usage: churn_server.py PORT CONNECTIONS
"""
import socket
import sys


def main() -> None:
    port, connections = int(sys.argv[1]), int(sys.argv[2])
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(128)
    for _ in range(connections):
        conn, _ = listener.accept()
        with conn:
            conn.recv(1024)
            conn.sendall(b"pong\n")
            while conn.recv(1024):  # wait for the client's FIN
                pass


if __name__ == "__main__":
    main()
