"""A bulk download: the client asks for BYTES, the server sends them in one sendall().

The segments are full-sized (the veths have segmentation offload off). In
rtt-bulk-cwnd the server's congestion window is locked at 3 segments (a route
metric in its namespace), so it sends 3 segments a round trip and waits; the
client ACKs every second segment and, once out of quick-ACK mode, holds the
ACK of the third for its delayed-ACK timer.

usage: bulk.py server HOST PORT [CONGESTION_CONTROL [CONNECTIONS]]
       bulk.py client HOST PORT BYTES
CONGESTION_CONTROL (e.g. cubic, or - for the default) is set on the server's
socket with TCP_CONGESTION; the server serves CONNECTIONS downloads (1) one
after the other and exits.
"""
import socket
import sys
import time


def serve(host: str, port: int, congestion_control: str | None, connections: int) -> None:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if congestion_control:  # inherited by the accepted socket
        listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, congestion_control.encode("ascii"))
    listener.bind((host, port))
    listener.listen(4)
    for _ in range(connections):
        conn, _ = listener.accept()
        with conn:
            request = conn.recv(64)  # "GET <bytes>\n"
            size = int(request.split()[1])
            conn.sendall(bytes(size))
            conn.recv(1)  # the client closes first


def download(host: str, port: int, size: int) -> None:
    with socket.create_connection((host, port)) as sock:
        started = time.monotonic()
        sock.sendall(b"GET %d\n" % size)
        received = 0
        while received < size:
            chunk = sock.recv(65536)
            if not chunk:
                raise ConnectionError(f"server closed after {received} of {size} bytes")
            received += len(chunk)
        elapsed = time.monotonic() - started
        print(f"{received} bytes in {1000 * elapsed:.1f} ms ({received / elapsed / 1e3:.0f} kB/s)", flush=True)


def main() -> None:
    role, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if role == "server":
        congestion_control = sys.argv[4] if len(sys.argv) > 4 and sys.argv[4] != "-" else None
        serve(host, port, congestion_control, int(sys.argv[5]) if len(sys.argv) > 5 else 1)
    else:
        download(host, port, int(sys.argv[4]))


if __name__ == "__main__":
    main()
