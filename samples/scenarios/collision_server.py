"""Server of the port-reuse-collision scenario.

Each connection announces a payload size (8 bytes, big-endian), sends the
payload, and gets "OK". The SERVER then closes first, so the server keeps the
connection in TIME_WAIT, remembering rcv_nxt = client ISN + payload + 10.

usage: collision_server.py PORT CONNECTIONS
"""
import socket
import struct
import sys


def main() -> None:
    port, connections = int(sys.argv[1]), int(sys.argv[2])
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(16)
    buffer = bytearray(1 << 20)
    for _ in range(connections):
        conn, _ = listener.accept()
        with conn:
            size_field = conn.recv(8, socket.MSG_WAITALL)
            remaining = struct.unpack("!Q", size_field)[0]
            while remaining:
                received = conn.recv_into(buffer, min(remaining, len(buffer)))
                if not received:
                    break
                remaining -= received
            conn.sendall(b"OK")
        # closed here, before the client: TIME_WAIT on the server side


if __name__ == "__main__":
    main()
