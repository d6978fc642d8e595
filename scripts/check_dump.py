#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Checks an `hsdp-inspect run --dump DIR` with NumPy, independently of the engine.

Every DIR/rank<r>/gathered/<param>.npy must equal the truth of docs/run.md for the
parameter's gradient, G[k] = ((p*131 + k*7) mod 251 - 125) / 64 over the
row-major flat index k of the shape that actually ran (the run JSON's
shape_run, which differs from the scenario's shape after a shrink).

usage: check_dump.py RUN_JSON DUMP_DIR    (RUN_JSON from `run --json`)
exit 0 when every gathered file matches exactly, 1 otherwise, 2 when RUN_JSON
or DUMP_DIR is not what `run --json` / `run --dump` wrote (message, no traceback).
"""
import json
import pathlib
import sys


def fail(message):
    """Bad input: a message on stderr and exit 2, never a traceback."""
    print(f"check_dump.py: {message}", file=sys.stderr)
    sys.exit(2)


def truth_gradient(np, index, shape):
    k = np.arange(int(np.prod(shape)), dtype=np.int64)
    return (((index * 131 + k * 7) % 251 - 125) / 64.0).astype(np.float32).reshape(shape)


def safe_name(name):
    out = "".join("_" if c in "/\\:\0" else c for c in name)
    return "_" + out if out in ("", ".", "..") else out


def load_run(run_json):
    """The run JSON's params, or exit 2 naming what is wrong (no traceback)."""
    try:
        run = json.loads(pathlib.Path(run_json).read_text())
    except OSError as error:
        fail(f"cannot read {run_json}: {error.strerror}")
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        fail(f"{run_json} is not JSON ({error}); give the output of "
                 "`hsdp-inspect run --json`, not the text output")
    params = run.get("params") if isinstance(run, dict) else None
    if (not isinstance(run, dict) or run.get("format") != "hsdp-run/1"
            or not isinstance(params, list)
            or not all(isinstance(p, dict) and {"name", "index", "shape_run"} <= p.keys()
                       for p in params)):
        fail(f"{run_json} is not an hsdp-run/1 result with params "
                 "(name, index, shape_run); give the output of `hsdp-inspect run --json`")
    return params


def main(run_json, dump_dir):
    if not pathlib.Path(dump_dir).is_dir():
        fail(f"{dump_dir} is not a folder (the DIR given to run --dump)")
    params = {p["name"]: p for p in load_run(run_json)}
    try:
        import numpy as np
    except ImportError:
        fail("No module named 'numpy': install NumPy (Debian: apt-get install python3-numpy)")
    by_file = {safe_name(name): p for name, p in params.items()}
    checked = failed = 0
    for path in sorted(pathlib.Path(dump_dir).glob("rank*/gathered/*.npy")):
        param = by_file.get(path.stem)
        if param is None:
            print(f"{path}: no parameter of that name in {run_json}")
            failed += 1
            continue
        got = np.load(path)
        want = truth_gradient(np, param["index"], param["shape_run"])
        checked += 1
        if got.shape != want.shape or not np.array_equal(got, want):
            failed += 1
            print(f"{path}: differs from G (shape {got.shape}, expected {want.shape})")
    print(f"{checked} gathered tensors checked against G, {failed} differ")
    return 0 if checked and not failed else 1


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
