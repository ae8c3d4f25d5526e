#!/usr/bin/env python3
"""libgrove from Python's ctypes: the C API's checks again from another language, and a finite
chunked graph's points by region against grove-cli's JSON export (the reference reader), bit for bit.
It stays on the raw ABI on purpose, apart from the Python package (app/python/grove, tested by
tests/python): its own ctypes declarations check grove.h's layout independently, and it makes the calls the
package never makes (NULL layers and out buffers, too small or negative capacities, raw handles after close).
Usage: capi_ctypes.py LIBGROVE GROVE_CLI CAPI_DIR"""
import ctypes
import json
import math
import os
import struct
import subprocess
import sys
import threading

lib_path, cli, here = sys.argv[1:4]
lib = ctypes.CDLL(lib_path)


class Point(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("z", ctypes.c_double), ("r", ctypes.c_double),
                ("rotation", ctypes.c_double), ("scale", ctypes.c_double), ("id", ctypes.c_uint64),
                ("type", ctypes.c_int32), ("reserved", ctypes.c_int32)]


class WorldInfo(ctypes.Structure):
    _fields_ = [("width", ctypes.c_double), ("height", ctypes.c_double), ("chunk", ctypes.c_double),
                ("endless", ctypes.c_int32), ("seed", ctypes.c_int32)]


G = ctypes.c_void_p
lib.grove_version.restype = ctypes.c_char_p
lib.grove_open.restype = G
lib.grove_open.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t]
lib.grove_open_file.restype = G
lib.grove_open_file.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t]
lib.grove_close.argtypes = [G]
lib.grove_layer_count.argtypes = [G]
lib.grove_layer_name.restype = ctypes.c_char_p
lib.grove_layer_name.argtypes = [G, ctypes.c_int]
lib.grove_layer_type_count.argtypes = [G, ctypes.c_int]
lib.grove_layer_type_name.restype = ctypes.c_char_p
lib.grove_layer_type_name.argtypes = [G, ctypes.c_int, ctypes.c_int]
lib.grove_layer_has_z.argtypes = [G, ctypes.c_int]
lib.grove_world.argtypes = [G, ctypes.POINTER(WorldInfo)]
lib.grove_chunk_size.restype = ctypes.c_double
lib.grove_chunk_size.argtypes = [G]
lib.grove_points_in_region.restype = ctypes.c_longlong
lib.grove_points_in_region.argtypes = [G, ctypes.c_char_p] + [ctypes.c_double] * 4 + [
    ctypes.POINTER(Point), ctypes.c_longlong, ctypes.c_char_p, ctypes.c_size_t]
lib.grove_points_in_chunk.restype = ctypes.c_longlong
lib.grove_points_in_chunk.argtypes = [G, ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.POINTER(Point),
                                      ctypes.c_longlong, ctypes.c_char_p, ctypes.c_size_t]
lib.grove_layer_attribute_count.argtypes = [G, ctypes.c_int]
lib.grove_layer_attribute_name.restype = ctypes.c_char_p
lib.grove_layer_attribute_name.argtypes = [G, ctypes.c_int, ctypes.c_int]
lib.grove_attribute_in_region.restype = ctypes.c_longlong
lib.grove_attribute_in_region.argtypes = [G, ctypes.c_char_p, ctypes.c_int] + [ctypes.c_double] * 4 + [
    ctypes.POINTER(ctypes.c_double), ctypes.c_longlong, ctypes.c_char_p, ctypes.c_size_t]
lib.grove_cancel.argtypes = [G]
lib.grove_resume.argtypes = [G]
lib.grove_set_threads.argtypes = [G, ctypes.c_int]
lib.grove_last_error.restype = ctypes.c_char_p

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL", what, file=sys.stderr)


class GroveError(Exception):
    pass


def open_text(text, name):
    err = ctypes.create_string_buffer(4096)
    data = text.encode()
    g = lib.grove_open(data, len(data), name.encode(), err, len(err))
    if not g:
        raise GroveError(err.value.decode())
    return g


def open_file(name):
    with open(os.path.join(here, name)) as f:
        return open_text(f.read(), name)


def points(g, layer, x0, y0, x1, y1):
    err = ctypes.create_string_buffer(1024)
    n = lib.grove_points_in_region(g, layer.encode(), x0, y0, x1, y1, None, 0, err, len(err))
    if n < 0:
        raise GroveError(err.value.decode())
    out = (Point * max(n, 1))()
    m = lib.grove_points_in_region(g, layer.encode(), x0, y0, x1, y1, out, n, err, len(err))
    check(m == n, f"count {n} with out NULL equals {m} written")
    return out[:n]


def bits(v):
    return struct.pack("<d", v)


def error_of(g, layer, x0, y0, x1, y1, out=None, capacity=0):
    err = ctypes.create_string_buffer(1024)
    n = lib.grove_points_in_region(g, layer if layer is None else layer.encode(), x0, y0, x1, y1, out, capacity, err,
                                   len(err))
    return n, err.value.decode()


check(lib.grove_version() == b"0.1.0", "version")
check(ctypes.sizeof(Point) == 64, "grove_point is 64 bytes")

# --- the endless world: regions, spacing, quadrants, threads -------------------------------------
g = open_file("endless.grove.yaml")
info = WorldInfo()
check(lib.grove_world(g, ctypes.byref(info)) == 0 and info.endless == 1 and info.chunk == 128, "endless world info")
check(lib.grove_chunk_size(g) == 128.0, "chunk size")
names = [lib.grove_layer_name(g, i).decode() for i in range(lib.grove_layer_count(g))]
check(names == ["rocks", "trees"], f"layers {names}")
check([lib.grove_layer_type_name(g, 0, t) for t in range(lib.grove_layer_type_count(g, 0))] == [b"boulder", b"pebble"],
      "rocks' types")

trees = points(g, "trees", -420.5, -260, 380, 300)
check(len(trees) > 500, f"trees in the region: {len(trees)}")
check(all(-420.5 <= p.x < 380 and -260 <= p.y < 300 for p in trees), "every tree in the region")
check(len({p.id for p in trees}) == len(trees), "unique ids")
check(all(p.id < 2 ** 53 for p in trees), "ids below 2^53")
cells = {}
for p in trees:
    cells.setdefault((math.floor(p.x / 20), math.floor(p.y / 20)), []).append(p)
close = 0
for (cx, cy), here_pts in cells.items():
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            for q in cells.get((cx + dx, cy + dy), []):
                for p in here_pts:
                    if p.id < q.id:
                        m = min(p.r, q.r)
                        if (p.x - q.x) ** 2 + (p.y - q.y) ** 2 < m * m * (1 - 1e-12):
                            close += 1
check(close == 0, f"{close} pairs of trees closer than min(r_a, r_b)")

whole = sorted((p.id, bits(p.x), bits(p.y), bits(p.r)) for p in trees)
quads = []
for (a, b, c, d) in [(-420.5, -260, 0, 17), (0, -260, 380, 17), (-420.5, 17, 0, 300), (0, 17, 380, 300)]:
    quads += [(p.id, bits(p.x), bits(p.y), bits(p.r)) for p in points(g, "trees", a, b, c, d)]
check(sorted(quads) == whole, "four quadrants stitch to the whole region")

# two Python threads (ctypes releases the GIL) on a fresh graph, overlapping regions
g2 = open_file("endless.grove.yaml")
results = {}


def ask(name, regions):
    results[name] = [bytes(memoryview((Point * max(1, len(ps)))(*ps))) for ps in
                     (points(g2, "trees", *r) for r in regions)]


r1, r2 = (-300, -300, 200, 200), (-100, -50, 400, 350)
threads = [threading.Thread(target=ask, args=("a", [r1, r2])), threading.Thread(target=ask, args=("b", [r2, r1]))]
for t in threads:
    t.start()
for t in threads:
    t.join()
check(results["a"][0] == results["b"][1] and results["a"][1] == results["b"][0], "threads get identical bytes")

# errors
n, msg = error_of(g, "treez", 0, 0, 1, 1)
check(n == -1 and msg == "no exported layer 'treez' in this graph (its layers: 'rocks', 'trees'); did you mean 'trees'?",
      f"unknown layer: {msg}")
n, msg = error_of(g, None, 0, 0, 1, 1)
check(n == -1 and "NULL" in msg, f"NULL layer: {msg}")
n, msg = error_of(g, "trees", float("nan"), 0, 1, 1)
check(n == -1 and "NaN" in msg, f"NaN: {msg}")
n, msg = error_of(g, "trees", 0, 5, 1, 1)
check(n == -1 and "inverted" in msg, f"inverted: {msg}")
small = (Point * 2)()
n, msg = error_of(g, "trees", 0, 0, 128, 128, small, 2)
check(n == -1 and "capacity 2 is too small" in msg, f"small capacity: {msg}")
n, msg = error_of(g, "trees", 0, 0, 128, 128, small, -5)
check(n == -1 and "negative" in msg, f"negative capacity: {msg}")
n, msg = error_of(g, "trees", 1e15, 0, 1e15 + 1, 1)
check(n == -1 and "beyond the chunk range" in msg, f"beyond the chunk range: {msg}")
n, msg = error_of(None, "trees", 0, 0, 1, 1)
check(n == -1 and msg == "the graph is NULL", f"NULL handle: {msg}")
check(lib.grove_last_error() == b"the graph is NULL", "grove_last_error")
check(lib.grove_cancel(g) == 0 and error_of(g, "trees", 0, 0, 1, 1) == (-1, "cancelled"), "cancelled")
check(lib.grove_resume(g) == 0 and error_of(g, "trees", 0, 0, 1, 1)[0] >= 0, "resumed")
try:
    open_text("grove: 1\nworld: {width: 10, height: 10, seed: 1}\nnodes:\n  a: {type: nope}\n", "py.grove.yaml")
    check(False, "an unknown type opens")
except GroveError as e:
    check(str(e).startswith("py.grove.yaml:4:") and "unknown node type 'nope'" in str(e), f"located message: {e}")
lib.grove_close(g)
lib.grove_close(g2)
n, msg = error_of(g, "trees", 0, 0, 1, 1)
check(n == -1 and "not an open graph" in msg, f"closed handle: {msg}")

# --- an endless layer with an attribute and a filter: by region, as grove-cli exports it -----------
wet_text = """grove: 1
world: {chunk: 100, seed: 5}
nodes:
  moist: {type: value_noise, params: {frequency: 0.01}}
  trees: {type: place_layer, params: {radius: 12, name: oaks}}
  wet: {type: attribute, inputs: {points: trees, field: moist}, params: {name: moisture}}
  keep: {type: filter_points, inputs: {points: wet}, params: {attribute: moisture, range: [0.5, 1]}}
"""
wet_path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"capi-wet-{os.getpid()}.grove.yaml")
with open(wet_path, "w") as f:
    f.write(wet_text)
g = open_text(wet_text, "wet.grove.yaml")
check(lib.grove_layer_attribute_count(g, 0) == 1 and lib.grove_layer_attribute_name(g, 0, 0) == b"moisture",
      "the endless filtered layer names its attribute")
region = (-300.0, -200.0, 300.0, 250.0)
kept = points(g, "oaks", *region)
values = (ctypes.c_double * max(1, len(kept)))()
err = ctypes.create_string_buffer(1024)
n = lib.grove_attribute_in_region(g, b"oaks", 0, *region, values, len(kept), err, len(err))
check(n == len(kept) and len(kept) > 50, f"values for every kept point: {n} / {len(kept)} {err.value.decode()}")
check(all(0.5 <= values[k] <= 1 for k in range(len(kept))), "every kept value is within the filter's range")
ref = json.loads(subprocess.run([cli, "eval", wet_path, "--region", ",".join(str(v) for v in region)], check=True,
                                capture_output=True, env={k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}).stdout)
want = [(p["id"], bits(p["x"]), bits(p["y"]), bits(p["attributes"]["moisture"])) for p in ref["layers"][0]["points"]]
check([(p.id, bits(p.x), bits(p.y), bits(values[k])) for k, p in enumerate(kept)] == want,
      "the kept points and their values equal grove-cli's JSON of the region, bit for bit")
lib.grove_close(g)
os.remove(wet_path)

# --- grove-cli's JSON export is the reference: every point, bit for bit -------------------------
finite = os.path.join(here, "finite.grove.yaml")
# grove-cli without this interpreter's LD_PRELOAD: a sanitizer runtime preloaded into python (an
# uninstrumented program) would clash with the one Clang links into an instrumented grove-cli
cli_env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
export = json.loads(subprocess.run([cli, "eval", finite, "--format", "json"], check=True, capture_output=True,
                                   env=cli_env).stdout)
g = lib.grove_open_file(finite.encode(), None, 0)
check(bool(g), "open the finite graph from its file")
info = WorldInfo()
lib.grove_world(g, ctypes.byref(info))
for li, layer in enumerate(export["layers"]):
    name = layer["name"]
    check(lib.grove_layer_name(g, li).decode() == name, f"layer {li} is {name}")
    check([lib.grove_layer_type_name(g, li, t["index"]).decode() for t in layer["types"]] == [t["name"] for t in layer["types"]],
          f"{name}: the types")
    check(lib.grove_layer_has_z(g, li) == (1 if layer["points"] and "z" in layer["points"][0] else 0), f"{name}: has z")
    want = [(p["id"], bits(p["x"]), bits(p["y"]), bits(p.get("z", 0.0)), bits(p["r"]), p["t"], bits(p["rot"]), bits(p["s"]))
            for p in layer["points"]]

    def as_tuple(p):
        return (p.id, bits(p.x), bits(p.y), bits(p.z), bits(p.r), p.type, bits(p.rotation), bits(p.scale))

    got = [as_tuple(p) for p in points(g, name, 0, 0, info.width, info.height)]
    check(len(want) > 20, f"{name}: the export has points")
    check(got == want, f"{name}: the whole world by region equals grove-cli's JSON in order ({len(got)} / {len(want)})")
    # chunk by chunk, and by an odd tiling: the same set
    c = int(info.chunk)
    by_chunk = []
    for j in range(math.ceil(info.height / c)):
        for i in range(math.ceil(info.width / c)):
            buf = (Point * 100000)()
            n = lib.grove_points_in_chunk(g, name.encode(), i, j, buf, 100000, None, 0)
            by_chunk += [as_tuple(p) for p in buf[:n]]
    check(by_chunk == want, f"{name}: chunk by chunk, row by row, equals the export in order")
    tiles = []
    for y0 in range(-37, 500, 91):
        for x0 in range(-37, 700, 113):
            tiles += [as_tuple(p) for p in points(g, name, x0, y0, x0 + 113, y0 + 91)]
    check(sorted(tiles) == sorted(want), f"{name}: odd tiles hold the export's points")
lib.grove_close(g)

print(f"{len(failures)} failed", file=sys.stderr)
sys.exit(1 if failures else 0)
