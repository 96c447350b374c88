"""A small MySQL-like framed protocol shared by the proxy scenarios.

A frame is a fixed 128-byte header followed by a body:
  header = 4-byte big-endian body length, 4-byte big-endian sequence number,
           120 bytes of zero-padded ASCII command text
  body   = `length` bytes

The client writes a whole frame in one write. The proxy parses frames and
re-serialises them as two writes, header then body, which is what exposes
Nagle's algorithm meeting the peer's delayed ACK.
"""
import struct

HEADER_BYTES = 128
_LENGTH_AND_SEQ = struct.Struct("!II")


def make_header(body_length: int, sequence: int, command: str) -> bytes:
    text = command.encode("ascii")[: HEADER_BYTES - _LENGTH_AND_SEQ.size]
    return _LENGTH_AND_SEQ.pack(body_length, sequence) + text.ljust(HEADER_BYTES - _LENGTH_AND_SEQ.size, b"\0")


def parse_header(header: bytes) -> tuple[int, int]:
    """Returns (body_length, sequence)."""
    return _LENGTH_AND_SEQ.unpack_from(header)


def split_frames(buffer: bytearray) -> list[tuple[bytes, bytes]]:
    """Removes every complete frame from `buffer`; returns [(header, body), ...]."""
    frames = []
    while len(buffer) >= HEADER_BYTES:
        body_length, _ = parse_header(buffer)
        frame_length = HEADER_BYTES + body_length
        if len(buffer) < frame_length:
            break
        frames.append((bytes(buffer[:HEADER_BYTES]), bytes(buffer[HEADER_BYTES:frame_length])))
        del buffer[:frame_length]
    return frames


def recv_exact(sock, count: int) -> bytes:
    chunks = bytearray()
    while len(chunks) < count:
        chunk = sock.recv(count - len(chunks))
        if not chunk:
            raise ConnectionError(f"peer closed after {len(chunks)} of {count} bytes")
        chunks += chunk
    return bytes(chunks)


def recv_frame(sock) -> tuple[bytes, bytes]:
    header = recv_exact(sock, HEADER_BYTES)
    body_length, _ = parse_header(header)
    return header, recv_exact(sock, body_length)
