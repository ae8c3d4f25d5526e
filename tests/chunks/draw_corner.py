#!/usr/bin/env python3
"""Draws the points of a grove.points JSON export near a chunk corner: on the left coloured by
the phase of their chunk, on the right all alike, each point a disc of half its radius (so two
discs never overlap). Standard library only.

    grove-cli eval tests/chunks/corner.grove.yaml -o corner.json
    tests/chunks/draw_corner.py corner.json corner.png --at 128 128 --half 40 --chunk 128
"""
import argparse
import json
import struct
import zlib

PHASE_COLOURS = [(40, 90, 170), (200, 80, 40), (40, 150, 70), (150, 60, 160)]
PLAIN = (50, 70, 60)
PAPER = (245, 242, 232)


def phase(i, j):
    return [[0, 3], [1, 2]][i & 1][j & 1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("export")
    ap.add_argument("png")
    ap.add_argument("--at", nargs=2, type=float, default=[128, 128], metavar=("X", "Y"))
    ap.add_argument("--half", type=float, default=40, help="half the side of the square drawn, world units")
    ap.add_argument("--chunk", type=float, default=128)
    ap.add_argument("--scale", type=int, default=6, help="pixels per world unit")
    a = ap.parse_args()
    points = [(p["x"], p["y"], p["r"]) for layer in json.load(open(a.export))["layers"] for p in layer["points"]]
    side = int(2 * a.half * a.scale)
    gap = 16
    width = 2 * side + gap
    img = [[PAPER] * width for _ in range(side)]
    cx, cy = a.at
    for x, y, r in points:
        if abs(x - cx) > a.half + r or abs(y - cy) > a.half + r:
            continue
        colour = PHASE_COLOURS[phase(int(x // a.chunk), int(y // a.chunk))]
        px, py, rad = (x - cx + a.half) * a.scale, (y - cy + a.half) * a.scale, r / 2 * a.scale
        for yy in range(int(py - rad), int(py + rad) + 1):
            for xx in range(int(px - rad), int(px + rad) + 1):
                if 0 <= xx < side and 0 <= yy < side and (xx - px) ** 2 + (yy - py) ** 2 <= rad * rad:
                    img[yy][xx] = colour
                    img[yy][xx + side + gap] = PLAIN
    raw = b"".join(b"\x00" + bytes(c for p in row for c in p) for row in img)

    def chunk(tag, body):
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF)

    with open(a.png, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, side, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


if __name__ == "__main__":
    main()
