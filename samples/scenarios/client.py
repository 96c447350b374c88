"""Client of the proxy scenarios: REQUESTS sequential requests on one connection.

Each request is one write of a whole frame (128-byte header + 35-byte body);
the client then waits for the whole response before sending the next one, so
it only ACKs the proxy's response header with its next request or with a
delayed ACK.

usage: client.py HOST PORT REQUESTS
Prints one line per request with its round-trip time in milliseconds.
"""
import socket
import sys
import time

import frames

REQUEST_BODY_BYTES = 35


def main() -> None:
    host, port, requests = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    with socket.create_connection((host, port)) as sock:
        for sequence in range(requests):
            body = (b"SELECT %d" % sequence).ljust(REQUEST_BODY_BYTES, b" ")
            request = frames.make_header(len(body), sequence, "COM_QUERY") + body
            started = time.monotonic()
            sock.sendall(request)  # one write per request
            frames.recv_frame(sock)
            print(f"request {sequence:3d} rtt_ms {1000 * (time.monotonic() - started):7.2f}", flush=True)


if __name__ == "__main__":
    main()
