"""Clients of the hosts-churn scenario: several client hosts, each making short connections.

Each HOST:COUNT runs in a thread of its own: COUNT connections to 127.0.0.1:PORT,
one after another, bound to the source address HOST (every 127.0.0.0/8 address
is local on lo), with GAP_MS between them. Each connection sends "ping", reads
the reply and closes FIRST, so each host keeps its connections in TIME_WAIT for
60 s: the ports each host holds grow with its count, every host from its own
port range.

usage: hosts_churn_client.py PORT GAP_MS HOST:COUNT...
"""
import socket
import sys
import threading
import time


def run_host(host: str, port: int, count: int, gap_seconds: float) -> None:
    for _ in range(count):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.bind((host, 0))
            sock.connect(("127.0.0.1", port))
            sock.sendall(b"ping\n")
            sock.recv(1024)
        # leaving the with-block closes first: TIME_WAIT stays on this host
        time.sleep(gap_seconds)


def main() -> None:
    port, gap_seconds = int(sys.argv[1]), int(sys.argv[2]) / 1000
    hosts = [(spec.split(":")[0], int(spec.split(":")[1])) for spec in sys.argv[3:]]
    started = time.monotonic()
    threads = [threading.Thread(target=run_host, args=(host, port, count, gap_seconds)) for host, count in hosts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    total = sum(count for _, count in hosts)
    print(f"{total} connections from {len(hosts)} hosts in {time.monotonic() - started:.2f} s")


if __name__ == "__main__":
    main()
