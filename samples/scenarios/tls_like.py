"""A TLS 1.2-shaped conversation: a full handshake, then application records.

Nothing here is encrypted: the payloads are fixed pseudo-random bytes. What
is real is the shape a capture shows: TLS record headers (type, version 3.3,
length) of the usual sizes, in flights that alternate between the sides,
each flight ONE write, each side writing only once it has read the whole of
the other side's flight.

  client  ClientHello
  server  ServerHello, Certificate, ServerKeyExchange, ServerHelloDone
  client  ClientKeyExchange, ChangeCipherSpec, Finished
  server  NewSessionTicket, ChangeCipherSpec, Finished
  client  application data (a request)        } 6 times
  server  application data (a response)       }
  client  alert close_notify
  server  alert close_notify                   then the client closes first

usage: tls_like.py server HOST PORT
       tls_like.py client HOST PORT
"""
import random
import socket
import struct
import sys
import time

HANDSHAKE, CHANGE_CIPHER_SPEC, ALERT, APPLICATION_DATA = 22, 20, 21, 23
RECORD_HEADER = struct.Struct("!BHH")

# (who writes, [(record type, record payload bytes), ...]) in order
SCRIPT = [
    ("client", [(HANDSHAKE, 512)]),
    ("server", [(HANDSHAKE, 93), (HANDSHAKE, 1047), (HANDSHAKE, 333), (HANDSHAKE, 4)]),
    ("client", [(HANDSHAKE, 37), (CHANGE_CIPHER_SPEC, 1), (HANDSHAKE, 40)]),
    ("server", [(HANDSHAKE, 202), (CHANGE_CIPHER_SPEC, 1), (HANDSHAKE, 40)]),
]
for request_bytes, response_bytes in [(120, 310), (186, 95), (98, 702), (240, 140), (133, 455), (101, 64)]:
    SCRIPT += [("client", [(APPLICATION_DATA, request_bytes)]), ("server", [(APPLICATION_DATA, response_bytes)])]
SCRIPT += [("client", [(ALERT, 26)]), ("server", [(ALERT, 26)])]


def flight_bytes(records, stream: random.Random) -> bytes:
    return b"".join(RECORD_HEADER.pack(kind, 0x0303, length) + stream.randbytes(length) for kind, length in records)


def recv_exact(sock: socket.socket, count: int) -> bytes:
    data = bytearray()
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise ConnectionError(f"peer closed after {len(data)} of {count} bytes")
        data += chunk
    return bytes(data)


def converse(sock: socket.socket, role: str) -> None:
    stream = random.Random(1)  # the same bytes on every run
    started = time.monotonic()
    for index, (writer, records) in enumerate(SCRIPT):
        payload = flight_bytes(records, stream)
        if writer == role:
            sock.sendall(payload)  # one write per flight
        else:
            received = recv_exact(sock, len(payload))
            if received != payload:
                raise ValueError(f"flight {index}: unexpected bytes")
            print(f"{role}: flight {index:2d} in ({len(records)} records, {len(payload)} bytes) after "
                  f"{1000 * (time.monotonic() - started):7.1f} ms", flush=True)


def main() -> None:
    role, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if role == "server":
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        listener.listen(4)
        conn, _ = listener.accept()
        with conn:
            converse(conn, "server")
            conn.recv(1)  # the client closes first
    else:
        with socket.create_connection((host, port)) as sock:
            converse(sock, "client")


if __name__ == "__main__":
    main()
