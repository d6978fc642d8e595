#!/usr/bin/python3
"""Checks an `hsdp-inspect run --dump DIR` with NumPy, independently of the engine.

Every DIR/rank<r>/gathered/<param>.npy must equal the truth of docs/run.md for the
parameter's gradient, G[k] = ((p*131 + k*7) mod 251 - 125) / 64 over the
row-major flat index k of the shape that actually ran (the run JSON's
shape_run, which differs from the scenario's shape after a shrink).

usage: check_dump.py RUN_JSON DUMP_DIR    (RUN_JSON from `run --json`)
exit 0 when every gathered file matches exactly, 1 otherwise.
"""
import json
import pathlib
import sys

import numpy as np


def truth_gradient(index, shape):
    k = np.arange(int(np.prod(shape)), dtype=np.int64)
    return (((index * 131 + k * 7) % 251 - 125) / 64.0).astype(np.float32).reshape(shape)


def safe_name(name):
    out = "".join("_" if c in "/\\:\0" else c for c in name)
    return "_" + out if out in ("", ".", "..") else out


def main(run_json, dump_dir):
    run = json.loads(pathlib.Path(run_json).read_text())
    params = {p["name"]: p for p in run["params"]}
    by_file = {safe_name(name): p for name, p in params.items()}
    checked = failed = 0
    for path in sorted(pathlib.Path(dump_dir).glob("rank*/gathered/*.npy")):
        param = by_file.get(path.stem)
        if param is None:
            print(f"{path}: no parameter of that name in {run_json}")
            failed += 1
            continue
        got = np.load(path)
        want = truth_gradient(param["index"], param["shape_run"])
        checked += 1
        if got.shape != want.shape or not np.array_equal(got, want):
            failed += 1
            print(f"{path}: differs from G (shape {got.shape}, expected {want.shape})")
    print(f"{checked} gathered tensors checked against G, {failed} differ")
    return 0 if checked and not failed else 1


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
