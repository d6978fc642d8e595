#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a Hugging Face safetensors checkpoint from a recipe, for trying
`hsdp-inspect scenario --from-checkpoint` without downloading a model.

    python3 samples/checkpoints/make_checkpoint.py RECIPE.json OUT_DIR [--data]

The recipe gives config.json, the dtype, the number of shard files and the
tensors (names and shapes as the published checkpoint has them: the ones
before the layers, one layer's with "{i}" repeated `count` times, the ones
after). OUT_DIR gets model-0000k-of-0000n.safetensors (one file:
model.safetensors), model.safetensors.index.json with total_size, and
config.json. The files are sparse: the header is written, the weights are a
hole the file system does not store (so a 7.6 GB model takes a few KB on
disk); --data writes zeros instead. Exit 2 on a bad recipe or OUT_DIR.
"""
import json
import os
import struct
import sys

BITS = {"BF16": 16, "F16": 16, "F32": 32, "F64": 64}


def fail(message):
    print(f"make_checkpoint.py: {message}", file=sys.stderr)
    sys.exit(2)


def tensors_of(recipe):
    out = [tuple(t) for t in recipe.get("tensors", [])]
    layers = recipe.get("layers")
    if layers:
        for i in range(layers["count"]):
            prefix = layers["prefix"].replace("{i}", str(i))
            out += [(prefix + name, shape) for name, shape in layers["tensors"]]
    out += [tuple(t) for t in recipe.get("final", [])]
    return out


def nbytes(shape, dtype):
    n = 1
    for d in shape:
        n *= d
    return n * BITS[dtype] // 8


def write_file(path, tensors, dtype, data):
    header, offset = {"__metadata__": {"format": "pt"}}, 0
    for name, shape in tensors:
        end = offset + nbytes(shape, dtype)
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, end]}
        offset = end
    text = json.dumps(header).encode()
    text += b" " * ((8 - len(text) % 8) % 8)  # as the safetensors library pads it
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        if data:
            chunk = b"\0" * (1 << 20)
            for start in range(0, offset, len(chunk)):
                f.write(chunk[: min(len(chunk), offset - start)])
        else:
            f.truncate(8 + len(text) + offset)


def main(argv):
    args = [a for a in argv if a != "--data"]
    if len(args) != 2:
        fail("usage: make_checkpoint.py RECIPE.json OUT_DIR [--data]")
    try:
        with open(args[0]) as f:
            recipe = json.load(f)
        dtype, files = recipe["dtype"], recipe["files"]
        tensors = tensors_of(recipe)
    except (OSError, ValueError, KeyError, TypeError) as error:
        fail(f"{args[0]}: not a recipe: {error}")
    if dtype not in BITS or not isinstance(files, int) or files < 1:
        fail(f"{args[0]}: dtype must be one of {', '.join(BITS)} and files an integer >= 1")
    out = args[1]
    os.makedirs(out, exist_ok=True)
    total = sum(nbytes(s, dtype) for _, s in tensors)
    shards, written = [[] for _ in range(files)], 0
    for name, shape in tensors:
        shards[min(files - 1, written * files // max(total, 1))].append((name, shape))
        written += nbytes(shape, dtype)
    weight_map = {}
    for k, shard in enumerate(shards):
        name = "model.safetensors" if files == 1 else f"model-{k + 1:05d}-of-{files:05d}.safetensors"
        write_file(os.path.join(out, name), shard, dtype, "--data" in argv)
        weight_map.update({t: name for t, _ in shard})
    if files > 1:
        with open(os.path.join(out, "model.safetensors.index.json"), "w") as f:
            json.dump({"metadata": {"total_size": total}, "weight_map": weight_map}, f, indent=2)
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(recipe["config"], f, indent=2)
    print(f"wrote {out}: {len(tensors)} tensors, {total} bytes of {dtype} in {files} file(s)")


if __name__ == "__main__":
    main(sys.argv[1:])
