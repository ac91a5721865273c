#!/usr/bin/env python3
"""What a build step pays: a first run, a rerun with nothing to do, --check, and a run after one
input changed, for one or more tabicon binaries side by side, runs alternated so that a busy
machine slows each alike. Wall and CPU (user + system of the process and its workers) medians,
and the largest peak RSS of any one process (the batch or a worker).

    python3 bench/reruns.py SET [--runs 9] [--jobs 2] NAME=BINARY [NAME=BINARY ...]

SET is a folder of icons (bench/fetch-inputs.sh makes bench/inputs/icons and bench/inputs/svg).
Each binary writes into its own folder under a temporary directory; the "one changed" run
rewrites the first input with one byte appended after its data (a PNG ignores trailing bytes,
an SVG's text gains a newline), so the icon is read, hashed and redone.
"""
import argparse
import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import time


def timed(command):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    # ru_maxrss of the children is the largest of any one child so far, in KiB.
    return wall, cpu, after.ru_maxrss


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("set")
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    binaries = [b.split("=", 1) for b in args.binaries]
    root = tempfile.mkdtemp(prefix="reruns-")
    sets = {}
    for name, _ in binaries:
        copy = os.path.join(root, name, "icons")
        shutil.copytree(args.set, copy)
        sets[name] = copy
    results = {name: {} for name, _ in binaries}

    def run(name, binary, kind, extra=()):
        out = os.path.join(root, name, "out")
        return timed([binary, "normalize", "-q", "--jobs", str(args.jobs), *extra, sets[name], "-o", out])

    for _ in range(args.runs):
        for name, binary in binaries:
            out = os.path.join(root, name, "out")
            shutil.rmtree(out, ignore_errors=True)
            results[name].setdefault("first run", []).append(run(name, binary, "first"))
            results[name].setdefault("rerun", []).append(run(name, binary, "rerun"))
            results[name].setdefault("--check", []).append(run(name, binary, "check", ["--check"]))
            first = min(os.path.join(folder, file) for folder, _, files in os.walk(sets[name]) for file in files)
            with open(first, "ab") as handle:
                handle.write(b"\n")
            results[name].setdefault("one changed", []).append(run(name, binary, "changed"))
    count = sum(len(files) for _, _, files in os.walk(args.set))
    print(f"{args.set}: {count} inputs, --jobs {args.jobs}, median of {args.runs}")
    print()
    print("| run | " + " | ".join(f"{name} wall | {name} CPU" for name, _ in binaries) + " |")
    print("|---|" + "---|---|" * len(binaries))
    for kind in ["first run", "rerun", "--check", "one changed"]:
        cells = []
        for name, _ in binaries:
            samples = results[name][kind]
            cells.append(f"{statistics.median(s[0] for s in samples):.3f} s")
            cells.append(f"{statistics.median(s[1] for s in samples):.3f} s")
        print(f"| {kind} | " + " | ".join(cells) + " |")
    # Peak RSS per binary, from a run of its own (getrusage's children maximum is process-wide).
    print()
    for name, binary in binaries:
        out = os.path.join(root, name, "peak")
        peak = subprocess.run(
            ["/usr/bin/time", "-f", "%M", binary, "normalize", "-q", "--jobs", str(args.jobs), sets[name], "-o", out],
            capture_output=True, text=True).stderr.strip().splitlines()[-1]
        rerun = subprocess.run(
            ["/usr/bin/time", "-f", "%M", binary, "normalize", "-q", "--jobs", str(args.jobs), sets[name], "-o", out],
            capture_output=True, text=True).stderr.strip().splitlines()[-1]
        print(f"{name}: peak RSS of the batch process, first run {int(peak) / 1024:.1f} MiB, rerun {int(rerun) / 1024:.1f} MiB")
    shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
