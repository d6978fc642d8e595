# SPDX-License-Identifier: Apache-2.0
"""The hicolor PNG icons are the studio's SVG drawn at their folder's size.

usage: check_icons.py ICONS_DIR SIZE...

For each SIZE, ICONS_DIR/SIZExSIZE/apps/hsdp-studio.png is a SIZE x SIZE
RGBA PNG showing the drawing of resources/hsdp-studio.svg: its corners
transparent (outside the rounded square), the square's navy (#0b3c5d)
between the mesh's cells, and from 32 px up the orange (#e66100) owner row
where the drawing has it.
"""

import struct
import sys
import zlib
from pathlib import Path


def decode_rgba(path):
    """(width, height, rows of (r, g, b, a)) of an 8-bit RGBA PNG."""
    data = path.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, header, idat = 8, None, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if (depth, colour, interlace) != (8, 6, 0):
        raise ValueError(f"not 8-bit non-interlaced RGBA (depth {depth}, colour type {colour})")
    raw, stride, rows, previous = zlib.decompress(idat), width * 4, [], bytearray(width * 4)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - 4] if x >= 4 else 0
            up, corner = previous[x], previous[x - 4] if x >= 4 else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append([tuple(line[i:i + 4]) for i in range(0, stride, 4)])
        previous = line
    return width, height, rows


def near(pixel, rgb, tolerance=40):
    return pixel[3] > 200 and all(abs(a - b) <= tolerance for a, b in zip(pixel, rgb))


def check(path, size):
    width, height, rows = decode_rgba(path)
    if (width, height) != (size, size):
        return f"{width}x{height}, not {size}x{size}"

    def at(x, y):  # a point of the 256-unit drawing
        return rows[min(size - 1, int(y * size / 256))][min(size - 1, int(x * size / 256))]

    if any(at(x, y)[3] > 16 for x, y in ((0, 0), (255, 0), (0, 255), (255, 255))):
        return "a corner is not transparent"
    if not near(at(128, 20), (0x0B, 0x3C, 0x5D)):
        return f"no navy square at the top middle: {at(128, 20)}"
    if size >= 32 and not near(at(59, 155), (0xE6, 0x61, 0x00)):
        return f"no orange owner row: {at(59, 155)}"
    return None


def main():
    folder, sizes = Path(sys.argv[1]), [int(s) for s in sys.argv[2:]]
    failures = 0
    for size in sizes:
        path = folder / f"{size}x{size}" / "apps" / "hsdp-studio.png"
        problem = check(path, size) if path.exists() else "missing"
        print(f"{'FAIL' if problem else 'ok  '} {path}{': ' + problem if problem else ''}")
        failures += bool(problem)
    sys.exit(1 if failures or not sizes else 0)


if __name__ == "__main__":
    main()
