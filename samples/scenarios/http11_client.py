"""HTTP/1.1 keep-alive client: REQUESTS GETs one after the other on ONE connection.

Each request is one write (http.client sends a GET without a body in one
send), and the next request leaves as soon as the whole response is in, so
each side's ACK rides on its next data segment.

usage: http11_client.py HOST PORT REQUESTS
Prints one line per request with its round-trip time in milliseconds.
"""
import http.client
import sys
import time


def main() -> None:
    host, port, requests = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    connection = http.client.HTTPConnection(host, port)
    for index in range(requests):
        started = time.monotonic()
        connection.request("GET", f"/item/{index}")
        response = connection.getresponse()
        body = response.read()
        print(f"request {index:3d}: {response.status}, {len(body)} bytes, "
              f"rtt_ms {1000 * (time.monotonic() - started):7.2f}", flush=True)
    connection.close()


if __name__ == "__main__":
    main()
