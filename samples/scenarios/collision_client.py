"""Client of the port-reuse-collision scenario: reconnects from ONE fixed source port.

Every connection pushes PAYLOAD_MB megabytes, then waits for the server to
close first. The next connection binds the same source port (SO_REUSEADDR)
and connects at once. Linux picks the new ISN from a clock that advances
about 15.6 million per second (secure_tcp_seq: hash + ns/64), and the
previous connection moved far more bytes than that, so the new SYN's
sequence number is BELOW the rcv_nxt the server's TIME_WAIT remembers. With
timestamps off (net.ipv4.tcp_timestamps=0) the server cannot accept that
SYN: it answers with an ACK for the old connection, this client's kernel
answers that ACK with an RST (which removes the TIME_WAIT), and the SYN
retransmitted 1 s later opens the connection.

usage: collision_client.py SERVER_PORT SOURCE_PORT CONNECTIONS PAYLOAD_MB
Prints how long each connect() took.
"""
import errno
import socket
import struct
import sys
import time


def main() -> None:
    server_port, source_port = int(sys.argv[1]), int(sys.argv[2])
    connections, payload_mb = int(sys.argv[3]), int(sys.argv[4])
    payload = memoryview(bytes(payload_mb << 20))
    for index in range(connections):
        for _ in range(100):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(("127.0.0.1", source_port))
            started = time.monotonic()
            try:
                sock.connect(("127.0.0.1", server_port))
                break
            except OSError as error:
                # the previous socket on this port may still be finishing LAST_ACK
                sock.close()
                if error.errno != errno.EADDRNOTAVAIL:
                    raise
                time.sleep(0.01)
        connect_ms = 1000 * (time.monotonic() - started)
        with sock:
            sock.sendall(struct.pack("!Q", len(payload)))
            sock.sendall(payload)
            reply = sock.recv(2, socket.MSG_WAITALL)
            sock.recv(1)  # the server's FIN
        print(f"connection {index}: connect took {connect_ms:7.1f} ms, sent {payload_mb} MB, reply {reply!r}",
              flush=True)


if __name__ == "__main__":
    main()
