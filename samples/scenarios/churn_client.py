"""Client of the churn scenario: CONNECTIONS short connections, as fast as it can.

Each connection sends "ping", reads the reply and closes FIRST, so this side
keeps every connection in TIME_WAIT for 60 s. With a 100-port
ip_local_port_range the kernel runs out of ephemeral ports and connect()
fails with EADDRNOTAVAIL; the client then retries every 100 ms until
TIME_WAIT expires and the same ports come back.

usage: churn_client.py PORT CONNECTIONS
"""
import errno
import socket
import sys
import time

RETRY_SECONDS = 0.1


def main() -> None:
    port, connections = int(sys.argv[1]), int(sys.argv[2])
    failures = 0
    pause_started = None
    started = time.monotonic()
    for index in range(connections):
        while True:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            try:
                sock.connect(("127.0.0.1", port))
                break
            except OSError as error:
                sock.close()
                if error.errno != errno.EADDRNOTAVAIL:
                    raise
                if pause_started is None:
                    pause_started = time.monotonic()
                    print(f"connection {index}: EADDRNOTAVAIL, ports exhausted after {time.monotonic() - started:.2f} s",
                          flush=True)
                failures += 1
                time.sleep(RETRY_SECONDS)
        if pause_started is not None:
            print(f"connection {index}: connected again after a {time.monotonic() - pause_started:.2f} s pause, "
                  f"{failures} EADDRNOTAVAIL failures", flush=True)
            pause_started = None
        with sock:
            sock.sendall(b"ping\n")
            sock.recv(1024)
            print(f"connection {index}: local port {sock.getsockname()[1]}", flush=True)
        # leaving the with-block closes first: TIME_WAIT stays here
    print(f"{connections} connections in {time.monotonic() - started:.2f} s, {failures} EADDRNOTAVAIL failures")


if __name__ == "__main__":
    main()
