#!/usr/bin/env python3
"""Runs a command once and prints its wall time, CPU time and peak RSS.

  bench/process_time.py CMD [ARG...]

Prints "WALL_S CPU_S MAXRSS_KIB": seconds since the start (monotonic clock),
user + system seconds of the command and its children (getrusage, to the
microsecond, which /usr/bin/time rounds to 10 ms), and the peak resident
set. Standard input is the caller's; the command's standard output is
discarded; its standard error passes through. Exits with the command's
status.
"""
import os
import subprocess
import sys
import time

if len(sys.argv) < 2:
    sys.exit(__doc__)
start = time.monotonic()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
wall = time.monotonic() - start
print(f"{wall:.4f} {usage.ru_utime + usage.ru_stime:.4f} {usage.ru_maxrss}")
sys.exit(os.waitstatus_to_exitcode(status))
