"""HTTP/1.0 server that closes first (so the SERVER keeps TIME_WAIT).

Python's http.server speaks HTTP/1.0 by default: after each response it shuts
the connection down itself, before the client (ab) closes.

usage: http10_server.py PORT REQUESTS
Serves REQUESTS requests, one connection each, then exits.
"""
import http.server
import sys

BODY = b"x" * 512


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()
        self.wfile.write(BODY)

    def log_message(self, format, *args):
        pass


def main() -> None:
    port, requests = int(sys.argv[1]), int(sys.argv[2])
    server = http.server.HTTPServer(("127.0.0.1", port), Handler)
    server.request_queue_size = 64
    for _ in range(requests):
        server.handle_request()
    server.server_close()


if __name__ == "__main__":
    main()
