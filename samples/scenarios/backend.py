"""Backend of the proxy scenarios: answers each request frame with one write.

It reads the WHOLE request (header and body) before answering, so while the
proxy's body write is held back by Nagle, the backend has nothing to send and
its ACK of the header is a delayed ACK.

usage: backend.py HOST PORT CONNECTIONS
Serves CONNECTIONS connections (one thread each), then exits.
"""
import socket
import sys
import threading

import frames

RESPONSE_BODY_BYTES = 35


def serve(conn: socket.socket) -> None:
    with conn:
        while True:
            try:
                header, body = frames.recv_frame(conn)
            except ConnectionError:
                return
            _, sequence = frames.parse_header(header)
            reply_body = (b"row %06d " % sequence).ljust(RESPONSE_BODY_BYTES, b".")
            reply = frames.make_header(len(reply_body), sequence, "RESULT") + reply_body
            conn.sendall(reply)  # one write per response


def main() -> None:
    host, port, connections = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, port))
    listener.listen(16)
    workers = []
    for _ in range(connections):
        conn, _ = listener.accept()
        worker = threading.Thread(target=serve, args=(conn,))
        worker.start()
        workers.append(worker)
    for worker in workers:
        worker.join()


if __name__ == "__main__":
    main()
