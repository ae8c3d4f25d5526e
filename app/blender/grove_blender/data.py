"""Grove's points as plain numpy arrays, read from a grove.points JSON export or evaluated from a
.grove.yaml graph through Grove's Python package (app/python/grove over libgrove). No bpy here: the
same reading serves Blender and anything else."""
import json
import os
import sys

try:
    import numpy as np
except ImportError as e:  # Debian's blender runs on the system python3 and does not depend on numpy
    raise ImportError(f"the Grove add-on needs numpy in Blender's Python ({e}); Debian: apt-get install python3-numpy")

# the arrays every layer carries, whichever file it came from
FIELDS = ("x", "y", "z", "r", "rotation", "scale", "type", "id")


class GroveDataError(Exception):
    """A file that cannot be imported; the message names the file and what is wrong with it."""


class LayerPoints:
    """One exported layer: its name, its type names (a point's `type` indexes them) and one numpy
    array per field of FIELDS, all of the same length, in Grove's export order."""

    def __init__(self, name, types, arrays):
        self.name = name
        self.types = list(types)
        self.arrays = arrays

    def __len__(self):
        return len(self.arrays["x"])

    def type_name(self, index):
        """The type's name, or "type<N>" for an index the layer does not name (an unnamed type)."""
        if 0 <= index < len(self.types) and self.types[index]:
            return self.types[index]
        return f"type{index}"


class GraphPoints:
    """What one import reads: a name (the file's stem) and the layers in export order."""

    def __init__(self, name, layers):
        self.name = name
        self.layers = layers


def is_graph_file(path):
    """True for a Grove graph (.grove.yaml / .yaml / .yml), false for an export (.json)."""
    return path.lower().endswith((".yaml", ".yml"))


def read(path, overrides=(), library=None, package_dir=None):
    """The points of `path`: a .json export read as it is, or a .yaml graph evaluated with `overrides`
    ("node.param=value" texts, as grove-cli's --set; a graph only)."""
    if is_graph_file(path):
        return read_graph(path, overrides, library, package_dir)
    if overrides:
        raise GroveDataError(f"{path}: overrides apply to a graph (.grove.yaml), not to an export")
    return read_json(path)


# ---------------------------------------------------------------- grove.points JSON

def read_json(path):
    """A grove.points JSON export (`grove-cli eval --format json`): every layer's points."""
    try:
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
    except (OSError, ValueError) as e:
        raise GroveDataError(f"{path}: {e}") from e
    if not isinstance(document, dict) or document.get("format") != "grove.points":
        raise GroveDataError(f"{path}: not a grove.points export (grove-cli eval --format json)")
    layers = [_json_layer(path, index, layer) for index, layer in enumerate(document.get("layers", []))]
    return GraphPoints(file_stem(path), layers)


def _json_layer(path, index, layer):
    """One layer of the JSON: its type names by index and its points as arrays (z 0 when absent)."""
    try:
        types = {int(t["index"]): str(t["name"]) for t in layer.get("types", [])}
        if sorted(types) != list(range(len(types))):
            raise ValueError(f"type indices {sorted(types)} are not 0 to {len(types) - 1}")
        names = [types[i] for i in range(len(types))]
        points = layer["points"]
        arrays = {
            "x": np.array([p["x"] for p in points], dtype=np.float64),
            "y": np.array([p["y"] for p in points], dtype=np.float64),
            "z": np.array([p.get("z", 0.0) for p in points], dtype=np.float64),
            "r": np.array([p["r"] for p in points], dtype=np.float64),
            "rotation": np.array([p.get("rot", 0.0) for p in points], dtype=np.float64),
            "scale": np.array([p.get("s", 1.0) for p in points], dtype=np.float64),
            "type": np.array([p.get("t", 0) for p in points], dtype=np.int32),
            "id": np.array([p.get("id", i) for i, p in enumerate(points)], dtype=np.uint64),
        }
        for field in ("x", "y", "z", "r", "rotation", "scale"):
            bad = np.flatnonzero(~np.isfinite(arrays[field]))
            if len(bad):
                raise ValueError(f"point {int(bad[0])}: {field} is {points[int(bad[0])]!r}, not a finite number")
        return LayerPoints(str(layer["name"]), names, arrays)
    except (KeyError, TypeError, ValueError) as e:
        raise GroveDataError(f"{path}: layer {index}: malformed ({type(e).__name__}: {e})") from e


def file_stem(path):
    """island_world for .../island_world.grove.yaml or .../island_world.json: what an import is named."""
    name = os.path.basename(path)
    for suffix in (".grove.yaml", ".json", ".yaml", ".yml"):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return name


# ---------------------------------------------------------------- .grove.yaml through libgrove

def import_grove_package(package_dir=None):
    """Grove's Python package: already importable, else from `package_dir`, else from the checkout this
    add-on sits in (app/blender/grove_blender -> app/python)."""
    try:
        import grove
        return grove
    except ImportError:
        pass
    here = os.path.dirname(os.path.realpath(__file__))  # through a symlink in Blender's scripts folder
    candidates = [package_dir] if package_dir else []
    candidates.append(os.path.normpath(os.path.join(here, "..", "..", "python")))
    for folder in candidates:
        if os.path.isfile(os.path.join(folder, "grove", "__init__.py")):
            if folder not in sys.path:
                sys.path.append(folder)
            try:
                import grove
            except ImportError as e:  # found, but it cannot load (its numpy, say)
                raise GroveDataError(f"Grove's Python package in {folder} does not import: {e}") from e
            return grove
    raise GroveDataError("Grove's Python package was not found (tried " + ", ".join(candidates)
                         + "): set its folder (app/python of a Grove checkout) in the add-on's preferences")


def read_graph(path, overrides=(), library=None, package_dir=None):
    """Evaluates a graph file with libgrove and reads every layer of its finite world."""
    grove = import_grove_package(package_dir)
    try:
        with grove.open(path, list(overrides), library=library or None) as graph:
            if graph.world.endless:
                raise GroveDataError(f"{path}: the world is endless: export a region "
                                     "(grove-cli eval --region X0,Y0,X1,Y1 --format json) and import that")
            layers = [_graph_layer(layer) for layer in graph]
            return GraphPoints(file_stem(path), layers)
    except grove.GroveError as e:
        raise GroveDataError(str(e)) from e


def _graph_layer(layer):
    """A layer's points copied out of libgrove's array into the arrays FIELDS names."""
    points = layer.points()
    arrays = {name: np.array(points[name]) for name in FIELDS}
    return LayerPoints(layer.name, layer.types, arrays)


def parse_overrides(text):
    """'a.b=1; c.d=[2, 3]' -> ['a.b=1', 'c.d=[2, 3]']: assignments separated by ';' or new lines."""
    parts = [part.strip() for line in text.splitlines() for part in line.split(";")]
    return [part for part in parts if part]
