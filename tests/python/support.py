"""What the Python package's tests share: the build's paths (from the environment CTest sets), grove-cli's
JSON export as the reference, and points compared with it byte for byte."""
import json
import locale
import os
import subprocess
import sys

try:
    import numpy as np
except ImportError as e:  # fail, never skip: this interpreter cannot run the package
    raise SystemExit(f"{sys.executable} has no numpy ({e}): apt-get install python3-numpy, or -DGROVE_PYTHON=PATH")

SOURCE = os.environ["GROVE_SOURCE"]  # the checkout
CLI = os.environ["GROVE_CLI"]  # grove-cli, the reference reader
LIBRARY = os.environ["GROVE_LIBRARY"]  # libgrove.so, as the package finds it

try:  # adopt the user's locale, as an application embedding Grove does: a decimal comma must not move a bit
    locale.setlocale(locale.LC_ALL, "")
except locale.Error:
    pass

sys.path.insert(0, os.path.join(SOURCE, "app", "python"))
import grove  # noqa: E402  (the package from the checkout, as `pip install ./app/python` installs it)


def cli_json(*args):
    """grove-cli eval ARGS --format json, parsed (numbers to float64 by Python's correctly rounded parser)."""
    run = subprocess.run([CLI, "eval", *args, "--format", "json", "--quiet"], capture_output=True, text=True)
    if run.returncode != 0:
        raise AssertionError(f"grove-cli eval {' '.join(args)} failed:\n{run.stderr}")
    return json.loads(run.stdout)


def as_points(json_points):
    """grove-cli's JSON points as a POINT_DTYPE array: the bytes libgrove must hand out (z 0 without heights)."""
    out = np.zeros(len(json_points), dtype=grove.POINT_DTYPE)
    for field, key in (("x", "x"), ("y", "y"), ("r", "r"), ("rotation", "rot"), ("scale", "s")):
        out[field] = np.array([p[key] for p in json_points], dtype=np.float64)
    out["z"] = np.array([p.get("z", 0.0) for p in json_points], dtype=np.float64)
    out["id"] = np.array([p["id"] for p in json_points], dtype=np.uint64)
    out["type"] = np.array([p["t"] for p in json_points], dtype=np.int32)
    return out


def assert_same_points(case, got, json_points, what):
    """Every point, in order, bit for bit (a -0.0 or a last-bit difference fails), with a readable first difference."""
    want = as_points(json_points)
    case.assertEqual(got.dtype, grove.POINT_DTYPE, what)
    case.assertEqual(len(got), len(want), f"{what}: point count")
    if got.tobytes() != want.tobytes():
        k = next(k for k in range(len(got)) if got[k].tobytes() != want[k].tobytes())
        case.fail(f"{what}: point {k} differs: libgrove {got[k]!r}, grove-cli {want[k]!r}")
