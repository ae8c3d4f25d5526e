#!/usr/bin/env python3
"""Writes the valley preset's inputs beside this script, as a studio's tools would hand them over:
a 16-bit PNG heightmap, an 8-bit painted river mask, a Tiled map with the road (a polyline) and the
village (a polygon), and a CSV of the houses a level designer placed by hand. Deterministic (no
randomness), standard library only: `python3 presets/valley/make_inputs.py` rewrites the same bytes."""
import math
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
W, H = 1024, 768          # the world, in world units; the rasters cover it at 2 units a pixel
PW, PH = W // 2, H // 2


def river_y(x):
    return 384 + 70 * math.sin(x / 170.0) + 25 * math.sin(x / 53.0 + 1.3)


def height(x, y):
    # a valley along the river, steeper higher up, with ridges across it
    d = abs(y - river_y(x)) / 384.0
    h = 0.08 + 0.8 * d ** 1.4 + 0.06 * math.sin(x / 41.0) * math.cos(y / 33.0) + 0.05 * math.sin((x + 2 * y) / 97.0)
    return min(1.0, max(0.0, h))


def png(path, width, height_px, depth, rows):
    def chunk(tag, data):
        return struct.pack('>I', len(data)) + tag + data + struct.pack('>I', zlib.crc32(tag + data) & 0xffffffff)
    raw = b''.join(b'\x00' + r for r in rows)
    data = (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height_px, depth, 0, 0, 0, 0))
            + chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b''))
    with open(path, 'wb') as f:
        f.write(data)


def main():
    # pixel centres at (i + 0.5) * 2 world units
    rows = []
    for j in range(PH):
        y = (j + 0.5) * 2
        rows.append(b''.join(struct.pack('>H', round(height((i + 0.5) * 2, y) * 65535)) for i in range(PW)))
    png(os.path.join(HERE, 'heightmap.png'), PW, PH, 16, rows)
    rows = []
    for j in range(PH):
        y = (j + 0.5) * 2
        rows.append(bytes(255 if abs(y - river_y((i + 0.5) * 2)) < 12 else 0 for i in range(PW)))
    png(os.path.join(HERE, 'river.png'), PW, PH, 8, rows)

    road = [{'x': round(x, 2), 'y': round(river_y(x) - 95 + 10 * math.sin(x / 90.0), 2)} for x in range(0, W + 1, 64)]
    village = [(610, 180), (790, 170), (820, 250), (760, 300), (620, 290)]
    tmj = {
        'type': 'map', 'version': '1.10', 'tiledversion': '1.10.2', 'orientation': 'orthogonal',
        'renderorder': 'right-down', 'infinite': False, 'tilewidth': 16, 'tileheight': 16,
        'width': W // 16, 'height': H // 16, 'tilesets': [], 'nextlayerid': 3, 'nextobjectid': 3,
        'layers': [
            {'type': 'objectgroup', 'id': 1, 'name': 'roads', 'draworder': 'topdown', 'opacity': 1, 'visible': True,
             'x': 0, 'y': 0, 'objects': [{'id': 1, 'name': 'valley road', 'type': '', 'x': 0, 'y': 0, 'width': 0,
                                          'height': 0, 'rotation': 0, 'visible': True,
                                          'polyline': road}]},
            {'type': 'objectgroup', 'id': 2, 'name': 'village', 'draworder': 'topdown', 'opacity': 1, 'visible': True,
             'x': 0, 'y': 0, 'objects': [{'id': 2, 'name': 'Millbrook', 'type': '', 'x': 0, 'y': 0, 'width': 0,
                                          'height': 0, 'rotation': 0, 'visible': True,
                                          'polygon': [{'x': x, 'y': y} for x, y in village]}]},
        ],
    }
    import json
    with open(os.path.join(HERE, 'roads.tmj'), 'w', encoding='utf-8') as f:
        json.dump(tmj, f, indent=1)
        f.write('\n')
    houses = [(650, 210, 14), (700, 200, 16), (750, 205, 14), (790, 230, 12), (660, 262, 14), (712, 255, 18),
              (765, 262, 14)]
    with open(os.path.join(HERE, 'houses.csv'), 'w', encoding='utf-8') as f:
        f.write('name,x,y,r\n')
        for k, (x, y, r) in enumerate(houses):
            f.write(f'house {k + 1},{x},{y},{r}\n')


if __name__ == '__main__':
    main()
