"""HTTP/1.1 keep-alive server: each response leaves in ONE write.

http.server's handler writes the status line and headers, then the body, as
two writes when its output is unbuffered (the default). Over a real round
trip, Nagle would hold the body until the client's delayed ACK of the
headers. A buffered wfile, flushed once per request by the handler, sends
headers and body together, as a server that is not broken does.

usage: http11_server.py HOST PORT
Serves one connection (all its requests), then exits.
"""
import http.server
import io
import sys


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    wbufsize = io.DEFAULT_BUFFER_SIZE  # one write per response (flushed after each request)

    def do_GET(self):
        body = (f"item {self.path}\n".encode("ascii")) * 8
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        pass


def main() -> None:
    host, port = sys.argv[1], int(sys.argv[2])
    server = http.server.HTTPServer((host, port), Handler)
    server.handle_request()  # one connection, as many requests as it carries
    server.server_close()


if __name__ == "__main__":
    main()
