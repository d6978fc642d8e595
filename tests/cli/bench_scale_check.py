#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""bench_scale_cli: runs `hsdp-bench scale --json --max-ranks N --procs P` and
checks what it says, not one row of it: exit 0 (every split run verified);
worlds in growing size up to N ranks, each verified in one process and split
over P workers, with a positive wall and connect time; and the connect-time
slope a number (two verified worlds at least).

usage: bench_scale_check.py HSDP_BENCH MAX_RANKS PROCS
"""
import json
import math
import subprocess
import sys


def fail(text, run=None):
    if run is not None:
        text += "\n--- output ---\n" + run.stdout + "\n--- stderr ---\n" + run.stderr
    sys.exit("bench_scale_cli: " + text)


def check_run(world, side):
    run = world.get(side)
    where = f"{world.get('label')} ({world.get('ranks')} ranks), {side}"
    if not isinstance(run, dict) or run.get("result") != "verified":
        fail(f"{where}: {run!r}, not verified")
    for key in ("seconds", "connect_seconds"):
        value = run.get(key)
        if not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
            fail(f"{where}: {key} is {value!r}")
    if run["seconds"] <= 0:
        fail(f"{where}: a verified run that took no time")


def main():
    bench, max_ranks, procs = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    run = subprocess.run([bench, "scale", "--json", "--max-ranks", str(max_ranks), "--procs", procs],
                         capture_output=True, text=True, timeout=280)
    if run.returncode != 0:
        fail(f"exit code {run.returncode} (0: every split run verified)", run)
    try:
        report = json.loads(run.stdout)
    except json.JSONDecodeError as e:
        fail(f"the output is not JSON: {e}", run)
    worlds = report.get("worlds")
    if not isinstance(worlds, list) or len(worlds) < 2:
        fail(f"fewer than two worlds: {worlds!r}", run)
    sizes = [w.get("ranks") for w in worlds]
    if sizes != sorted(sizes) or len(set(sizes)) != len(sizes) or sizes[-1] != max_ranks:
        fail(f"worlds of {sizes} ranks: not growing up to {max_ranks}", run)
    for world in worlds:
        if str(world.get("procs")) != procs:
            fail(f"{world.get('label')}: split over {world.get('procs')} workers, not {procs}")
        check_run(world, "one_process")
        check_run(world, "split")
    for key in ("connect_slope_one_process", "connect_slope_split"):
        if not isinstance(report.get(key), (int, float)):
            fail(f"{key} is {report.get(key)!r}, not a number", run)
    print(f"bench_scale_cli: {len(worlds)} worlds ({', '.join(map(str, sizes))} ranks) verified "
          f"in one process and over {procs} workers; slopes {report['connect_slope_one_process']:.2f}"
          f", {report['connect_slope_split']:.2f}")


main()
