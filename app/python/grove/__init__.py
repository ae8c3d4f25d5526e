"""Grove from Python: open a graph (a file or YAML text, with param overrides), list its layers, get
their points as numpy structured arrays (POINT_DTYPE, libgrove's grove_point as it is), by region or
chunk. A thin layer over libgrove (grove.h) through ctypes.

    import grove
    with grove.open("presets/valley.grove.yaml", {"trees.radius": 6}) as graph:
        for layer in graph:
            points = layer.points()  # a finite world's layer; layer.region(...) / layer.chunk(i, j)

libgrove is found through open()'s library argument, $GROVE_LIBRARY, libgrove.so next to this package,
or the system's library search, in that order."""
from ._library import ENVIRONMENT_VARIABLE, POINT_DTYPE
from ._library import load as _load
from .errors import (CancelledError, ClosedError, GraphError, GroveError, LibraryNotFoundError, Problem, RegionError,
                     UnknownLayerError)
from .graph import Graph, Layer, World, open_file, open_text
from .session import Chunk, Session, Update

__version__ = "0.1.0"
__all__ = ["open", "open_file", "open_text", "version", "Graph", "Layer", "World", "Session", "Chunk", "Update", "POINT_DTYPE", "GroveError",
           "GraphError", "ClosedError", "CancelledError", "UnknownLayerError", "RegionError",
           "LibraryNotFoundError", "Problem", "ENVIRONMENT_VARIABLE"]


def open(path, overrides=None, *, max_points=None, library=None):  # noqa: A001 (grove.open, as the issue names it)
    """Opens and evaluates the graph file at `path`. overrides: {"node.param": value} or
    ["node.param=value", ...], applied in order as grove-cli's --set. Raises GraphError with every
    located problem ("FILE:LINE:COL: error: ...") when the graph does not open."""
    return open_file(path, overrides, max_points=max_points, library=library)


def version(library=None):
    """The Grove release libgrove comes from ("0.1.0")."""
    return _load(library).grove_version().decode()
