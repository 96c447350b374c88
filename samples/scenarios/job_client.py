"""Job client of the jobs-port-exhaustion scenario: one connection per job.

WORKERS threads take jobs from one queue. For each job a worker connects,
sends one line ("job N"), reads the one-line answer and closes FIRST, so
this host keeps every connection in TIME_WAIT for 60 s. When connect()
fails with EADDRNOTAVAIL (no free local port towards the server), the
worker closes that socket and tries again with a new one 100 ms later, as
a job runner that retries would.

usage: job_client.py HOST PORT JOBS WORKERS
"""
import errno
import socket
import sys
import threading
import time

RETRY_SECONDS = 0.1


class Jobs:
    def __init__(self, count: int) -> None:
        self.count = count
        self.next = 0
        self.done = 0
        self.failures = 0
        self.lock = threading.Lock()
        self.started = time.monotonic()
        self.pause_started = None

    def take(self) -> int | None:
        with self.lock:
            if self.next == self.count:
                return None
            self.next += 1
            return self.next - 1

    def connect_failed(self) -> None:
        with self.lock:
            self.failures += 1
            if self.pause_started is None:
                self.pause_started = time.monotonic()
                print(f"EADDRNOTAVAIL after {self.done} jobs, {self.pause_started - self.started:.2f} s", flush=True)

    def connected(self) -> None:
        with self.lock:
            if self.pause_started is not None:
                now = time.monotonic()
                print(f"connected again {now - self.started:.2f} s after the start, {now - self.pause_started:.2f} s "
                      f"after the first EADDRNOTAVAIL; {self.failures} EADDRNOTAVAIL so far", flush=True)
                self.pause_started = None

    def finished(self) -> None:
        with self.lock:
            self.done += 1


def worker(jobs: Jobs, host: str, port: int) -> None:
    while (job := jobs.take()) is not None:
        while True:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            try:
                sock.connect((host, port))
                break
            except OSError as error:
                sock.close()
                if error.errno != errno.EADDRNOTAVAIL:
                    raise
                jobs.connect_failed()
                time.sleep(RETRY_SECONDS)
        jobs.connected()
        with sock:
            sock.sendall(b"job %d\n" % job)
            sock.recv(64)
        # leaving the with-block closes first: the TIME_WAIT stays here
        jobs.finished()


def main() -> None:
    host, port, count, workers = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    jobs = Jobs(count)
    threads = [threading.Thread(target=worker, args=(jobs, host, port)) for _ in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(f"{jobs.done} jobs in {time.monotonic() - jobs.started:.2f} s, {jobs.failures} EADDRNOTAVAIL")


if __name__ == "__main__":
    main()
