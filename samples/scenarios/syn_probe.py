"""Connection attempts to three ports of one server: open, refused, filtered.

The server's namespace drops every SYN to the filtered port (an nftables rule
in record.sh), so those attempts are never answered: the client's kernel
retransmits the SYN until connect() gives up at its timeout. The refused
port has no listener (an RST answers the SYN); the open port answers one
request.

usage: syn_probe.py server HOST OPEN_PORT
       syn_probe.py client HOST OPEN_PORT REFUSED_PORT FILTERED_PORT TIMEOUT_SECONDS...
One attempt to the filtered port per TIMEOUT_SECONDS, all at once, after the
open and the refused port. Prints what each attempt got, in seconds.
"""
import socket
import sys
import threading
import time


def serve(host: str, port: int) -> None:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, port))
    listener.listen(4)
    conn, _ = listener.accept()
    with conn:
        conn.sendall(b"hello " + conn.recv(1024))
        conn.recv(1)  # the client closes first


def attempt(host: str, port: int, timeout_seconds: float, request: bytes | None = None) -> None:
    started = time.monotonic()
    try:
        with socket.create_connection((host, port), timeout=timeout_seconds) as sock:
            outcome = "connected"
            if request:
                sock.sendall(request)
                outcome += f", reply {sock.recv(1024)!r}"
    except OSError as error:
        outcome = type(error).__name__
    print(f"port {port}: {outcome} after {time.monotonic() - started:.3f} s", flush=True)


def main() -> None:
    role, host, open_port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if role == "server":
        serve(host, open_port)
        return
    refused_port, filtered_port = int(sys.argv[4]), int(sys.argv[5])
    attempt(host, open_port, 5, b"probe\n")
    attempt(host, refused_port, 5)
    threads = [threading.Thread(target=attempt, args=(host, filtered_port, float(timeout)))
               for timeout in sys.argv[6:]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


if __name__ == "__main__":
    main()
