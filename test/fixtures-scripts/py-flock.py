"""The Python original's lock, for the interop tests (DECISIONS D33): fcntl.flock on a lock file.

Usage: python3 py-flock.py hold <lock>     take LOCK_EX (waiting as long as it takes), print "held <pid>", then hold
                                            it until stdin closes (or the process is killed)
       python3 py-flock.py try <lock>      one LOCK_EX|LOCK_NB attempt: print "busy" or "free" (and release)
       python3 py-flock.py wait <lock>     blocking LOCK_EX: print "waiting", then "got" once it is granted
       python3 py-flock.py audit <lock> <ledger> <rows>
                                            until the ledger has <rows> lines: take LOCK_EX (blocking), count the
                                            ledger's lines, pause, count again, release; a count that changed while
                                            held is a writer that ignored the lock. Prints "audits A violations V".
"""
import fcntl
import os
import sys

mode, path = sys.argv[1], sys.argv[2]


def lines(ledger):
    try:
        with open(ledger, "rb") as g:
            return g.read().count(b"\n")
    except FileNotFoundError:
        return 0


if mode == "audit":
    import time

    ledger, rows = sys.argv[3], int(sys.argv[4])
    audits = violations = 0
    deadline = time.monotonic() + 120
    with open(path, "a+") as f:
        while lines(ledger) < rows and time.monotonic() < deadline:
            fcntl.flock(f, fcntl.LOCK_EX)
            before = lines(ledger)
            time.sleep(0.005)
            if lines(ledger) != before:
                violations += 1
            audits += 1
            fcntl.flock(f, fcntl.LOCK_UN)
            time.sleep(0.001)
    print(f"audits {audits} violations {violations}", flush=True)
    sys.exit(0)
with open(path, "a+") as f:
    if mode == "try":
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print("busy", flush=True)
            sys.exit(0)
        print("free", flush=True)
        fcntl.flock(f, fcntl.LOCK_UN)
        sys.exit(0)
    if mode == "wait":
        print("waiting", flush=True)
    fcntl.flock(f, fcntl.LOCK_EX)
    print("got" if mode == "wait" else f"held {os.getpid()}", flush=True)
    if mode == "hold":
        sys.stdin.read()
    fcntl.flock(f, fcntl.LOCK_UN)
