#!/usr/bin/env python3
"""Where a first run's wall time goes, phase by phase: the milliseconds from the process's start
to each point bench/phases.patch marks (inputs collected, plan made, units made, manifest text,
manifest and stat cache written, exit), medians of 9 first runs into /dev/shm.

The marks are not in the product (each would cost a look-up of the environment); to measure:

    git apply bench/phases.patch
    swift build -c release --static-swift-stdlib --product tabicon
    python3 bench/phases.py .build/release/tabicon bench/inputs/icons [JOBS]
    git apply -R bench/phases.patch

The patched binary prints `PHASE NAME MS` (CLOCK_MONOTONIC) on standard error when
TABICON_PHASES is set; Python's time.monotonic() reads the same clock, so the start is the
moment before the process is spawned.
"""
import collections
import os
import shutil
import statistics
import subprocess
import sys
import time

binary, inputs = sys.argv[1], sys.argv[2]
jobs = sys.argv[3] if len(sys.argv) > 3 else "2"
out = "/dev/shm/tabicon-phases" if os.path.isdir("/dev/shm") else "/tmp/tabicon-phases"
runs = collections.defaultdict(list)
for _ in range(9):
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, TABICON_PHASES="1")
    start = time.monotonic() * 1e3
    done = subprocess.run([binary, "normalize", "-q", inputs, "--out", out, "--jobs", jobs], env=env,
                          capture_output=True, text=True)
    end = time.monotonic() * 1e3
    for line in done.stderr.splitlines():
        if line.startswith("PHASE "):
            _, *name, ms = line.split(" ")
            runs[" ".join(name)].append(float(ms) - start)
    runs["exit"].append(end - start)
shutil.rmtree(out, ignore_errors=True)
for name, values in runs.items():
    print(f"{statistics.median(values):7.1f} ms  {name}")
