#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Gathers the fuzzers' seed corpora from the repository, so none is kept to drift.

Every JSON file of samples/, tests/data/, docs/examples/ and resources/clusters/,
and every ```json block of README.md and docs/*.md, goes to OUT/<kind>/ by what it
is: scenario, cluster, run, trace, model_config, or json (anything else: the
docs' fragments, the malformed test inputs). With --inspect (a built
hsdp-inspect), runs of samples/diagnostics_tour.json (corrected and reference)
give run, trace and saved_run seeds (the run, a NUL byte, the trace), and two
worker processes of samples/teaching_2x2.json leave a store folder's share and
run_card seeds. Writes OUT/<kind>.dict too: libFuzzer dictionaries of JSON's
tokens and every key and short string of that kind's seeds.
"""

import argparse
import json
import pathlib
import re
import shutil
import subprocess
import tempfile

JSON_TOKENS = ["{", "}", "[", "]", ":", ",", '""', "null", "true", "false", "-", "0", "1",
               "-1", "0.5", "1e308", "9223372036854775807", "18446744073709551616", "\\u0000",
               "\\ud800", "\ufeff"]


def kind_of(text):
    try:
        doc = json.loads(text)
    except ValueError:
        return "json"
    if not isinstance(doc, dict):
        return "json"
    fmt = doc.get("format")
    if fmt == "hsdp-scenario/1":
        return "scenario"
    if fmt == "hsdp-cluster/1":
        return "cluster"
    if fmt == "hsdp-run/1":
        return "run"
    if "traceEvents" in doc:
        return "trace"
    if "model_type" in doc or "architectures" in doc:
        return "model_config"
    return "json"


def docs_blocks(source):
    pages = [source / "README.md"] + sorted((source / "docs").glob("*.md"))
    for page in pages:
        lines = page.read_text(encoding="utf-8").splitlines()
        block, start = None, 0
        for number, line in enumerate(lines, 1):
            if block is None and line.strip() == "```json":
                block, start = [], number
            elif block is not None and line.strip() == "```":
                yield f"{page.stem}-{start}.json", "\n".join(block) + "\n"
                block = None
            elif block is not None:
                block.append(line)


def repository_files(source):
    for folder in ["samples", "tests/data", "docs/examples", "resources/clusters"]:
        for path in sorted((source / folder).rglob("*.json")):
            if "fuzz-regressions" in path.parts:
                continue  # scripts/fuzz gives each harness its own
            name = str(path.relative_to(source)).replace("/", "-")
            yield name, path.read_text(encoding="utf-8", errors="surrogateescape")


def add(out, kind, name, data):
    folder = out / kind
    folder.mkdir(parents=True, exist_ok=True)
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(folder / name, mode, **({} if mode == "wb" else {"errors": "surrogateescape"})) as f:
        f.write(data)


def run_seeds(out, source, inspect):
    scenario = source / "samples" / "diagnostics_tour.json"
    with tempfile.TemporaryDirectory() as tmp:
        for mode in ["corrected", "reference"]:
            trace = pathlib.Path(tmp) / f"{mode}.trace.json"
            result = subprocess.run([inspect, "run", str(scenario), "--json", "--mode", mode,
                                     "--trace", str(trace)], capture_output=True, check=False)
            if result.returncode not in (0, 1):
                raise SystemExit(f"gather_seeds: {inspect} run failed: {result.stderr.decode()}")
            add(out, "run", f"diagnostics_tour.{mode}.json", result.stdout)
            add(out, "trace", f"diagnostics_tour.{mode}.trace.json", trace.read_bytes())
            add(out, "saved_run", f"diagnostics_tour.{mode}",
                result.stdout + b"\0" + trace.read_bytes())
        add(out, "saved_run", "diagnostics_tour.run-only", result.stdout)


def store_seeds(out, source, inspect):
    scenario = str(source / "samples" / "teaching_2x2.json")
    with tempfile.TemporaryDirectory() as store:
        worker = [inspect, "worker", scenario, "--store", store, "--procs", "2"]
        second = subprocess.Popen(worker + ["--proc", "1"], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        subprocess.run(worker + ["--proc", "0", "--fresh"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False, timeout=120)
        second.wait(timeout=120)
        folder = pathlib.Path(store)
        for share in sorted(folder.glob("share.*")):
            add(out, "share", "teaching_2x2." + share.name, share.read_bytes())
        if (folder / "run.json").exists():
            add(out, "run_card", "teaching_2x2.run.json", (folder / "run.json").read_bytes())


def dict_entry(token):
    data = token.encode("utf-8", errors="surrogateescape")
    body = "".join(chr(b) if 32 <= b < 127 and chr(b) not in '"\\' else f"\\x{b:02X}" for b in data)
    return f'"{body}"'


def strings_of(value, found):
    if isinstance(value, dict):
        for key, member in value.items():
            found.add(f'"{key}"')
            strings_of(member, found)
    elif isinstance(value, list):
        for member in value:
            strings_of(member, found)
    elif isinstance(value, str) and len(value) <= 40:
        found.add(json.dumps(value))


def write_dicts(out):
    for folder in sorted(p for p in out.iterdir() if p.is_dir()):
        found = set(JSON_TOKENS)
        for seed in folder.iterdir():
            text = seed.read_bytes().split(b"\0")
            for part in text:
                try:
                    strings_of(json.loads(part), found)
                except ValueError:
                    pass
        (out / f"{folder.name}.dict").write_text(
            "".join(dict_entry(t) + "\n" for t in sorted(found)), encoding="utf-8")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=pathlib.Path, required=True)
    parser.add_argument("--out", type=pathlib.Path, required=True)
    parser.add_argument("--inspect", help="a built hsdp-inspect, for run, trace and store seeds")
    args = parser.parse_args()
    shutil.rmtree(args.out, ignore_errors=True)
    args.out.mkdir(parents=True)
    for name, text in list(repository_files(args.source)) + list(docs_blocks(args.source)):
        add(args.out, kind_of(text), re.sub(r"[^A-Za-z0-9._-]", "_", name), text)
    if args.inspect:
        run_seeds(args.out, args.source, args.inspect)
        store_seeds(args.out, args.source, args.inspect)
    write_dicts(args.out)
    counts = {p.name: len(list(p.iterdir())) for p in sorted(args.out.iterdir()) if p.is_dir()}
    print("seeds: " + ", ".join(f"{kind} {n}" for kind, n in counts.items()))


if __name__ == "__main__":
    main()
