"""An open graph and its layers over libgrove: metadata read once at open, points as numpy arrays."""
import collections
import collections.abc
import ctypes
import json
import math
import os

import numpy as np

from . import _library
from .errors import GraphError, GroveError, RegionError, UnknownLayerError, raise_for
from .native import _Native
from .session import Session

_OPEN_MESSAGE_BYTES = 1 << 16  # every problem of a graph, one a line
_CALL_MESSAGE_BYTES = 4096

World = collections.namedtuple("World", "width height chunk endless seed wrap_x wrap_y")
World.__doc__ = ("The graph's world: width and height (0 when endless), chunk side (0: no chunks), endless, seed, and "
                 "whether it repeats along x and y (world.wrap: a tileable world).")


def _assignments(overrides):
    """NODE.PARAM=VALUE texts from a mapping {"node.param": value} (values other than str as JSON, which
    Grove reads as YAML) or from an iterable of "node.param=value" strings, in the order given."""
    if overrides is None:
        return []
    if isinstance(overrides, str):
        raise TypeError('overrides: a dict {"node.param": value} or a list of "node.param=value", not one string')
    if isinstance(overrides, collections.abc.Mapping):
        return [f"{key}={value if isinstance(value, str) else json.dumps(value)}" for key, value in overrides.items()]
    out = []
    for item in overrides:
        if not isinstance(item, str):
            raise TypeError(f"overrides: {item!r} is not a \"node.param=value\" string")
        out.append(item)
    return out


def _options(overrides, max_points, base_dir):
    sets = [s.encode() for s in _assignments(overrides)]
    options = _library.Options()
    if max_points is not None:
        if max_points <= 0:
            raise ValueError(f"max_points must be positive, not {max_points}")
        options.max_points = max_points
    if base_dir is not None:
        options.base_dir = os.fsencode(base_dir)
    array = (ctypes.c_char_p * max(len(sets), 1))(*sets)
    options.sets = ctypes.cast(array, ctypes.POINTER(ctypes.c_char_p))
    options.set_count = len(sets)
    return options, array  # the array must outlive the call


class Layer:
    """An exported layer: its name, types, whether its points carry heights and its attributes' names; its
    points by region or chunk."""

    def __init__(self, graph, index, name, types, has_z, attributes=()):
        self._graph = graph
        self.index, self.name, self.types, self.has_z = index, name, types, has_z
        self.attributes = attributes

    def __repr__(self):
        return f"<grove.Layer {self.name!r} types={list(self.types)}>"

    def region(self, x0, y0, x1, y1):
        """The points with x0 <= x < x1 and y0 <= y < y1 in export order, as a numpy array of POINT_DTYPE."""
        return self._graph._points("grove_points_in_region", self.name, (float(x0), float(y0), float(x1), float(y1)))

    def chunk(self, i, j):
        """The points of chunk (i, j): the region [i c, (i + 1) c) x [j c, (j + 1) c), c the chunk size."""
        return self._graph._points("grove_points_in_chunk", self.name, (_int32(i, "i"), _int32(j, "j")))

    def attribute(self, name, x0=-math.inf, y0=-math.inf, x1=math.inf, y1=math.inf):
        """Attribute `name` of the points region(x0, y0, x1, y1) gives (by default every point, as points()), in
        the same order, as a numpy float64 array."""
        if name not in self.attributes:
            raise KeyError(f"layer '{self.name}' has no attribute {name!r} (its attributes: {list(self.attributes)})")
        return self._graph._attribute(self.name, self.attributes.index(name),
                                      (float(x0), float(y0), float(x1), float(y1)))

    def points(self):
        """Every point of a finite world's layer, in the order and with the bytes of grove-cli's JSON export."""
        if self._graph.world.endless:
            raise RegionError(f"layer '{self.name}': the world is endless: ask for a region or a chunk")
        return self.region(-math.inf, -math.inf, math.inf, math.inf)


def _int32(value, what):
    value = int(value)
    if not -2 ** 31 <= value < 2 ** 31:
        raise RegionError(f"chunk {what} = {value} is beyond the chunk range")
    return value


class Graph(_Native):
    """An open graph (grove.open, grove.open_text). Safe to use from several threads at once, as libgrove is;
    close() (or leaving a `with` block) frees it, and later calls raise ClosedError."""

    _what = "graph"

    def __init__(self, lib, handle):
        super().__init__(lib, handle, lib.grove_close)
        info = _library.WorldInfo()
        if lib.grove_world(handle, ctypes.byref(info)) != 0:
            raise_for(self._last_error())
        wrap_x, wrap_y = ctypes.c_int32(), ctypes.c_int32()
        if lib.grove_world_wrap(handle, ctypes.byref(wrap_x), ctypes.byref(wrap_y)) != 0:
            raise_for(self._last_error())
        self.world = World(info.width, info.height, info.chunk, bool(info.endless), info.seed, bool(wrap_x.value),
                           bool(wrap_y.value))
        layers = []
        for k in range(self._checked(lib.grove_layer_count(handle))):
            name = self._string(lib.grove_layer_name(handle, k))
            types = tuple(self._string(lib.grove_layer_type_name(handle, k, t))
                          for t in range(self._checked(lib.grove_layer_type_count(handle, k))))
            attributes = tuple(self._string(lib.grove_layer_attribute_name(handle, k, a))
                               for a in range(self._checked(lib.grove_layer_attribute_count(handle, k))))
            layers.append(Layer(self, k, name, types, self._checked(lib.grove_layer_has_z(handle, k)) == 1, attributes))
        self.layers = tuple(layers)  # read once: libgrove's strings are not touched again

    def _last_error(self):
        return (self._lib.grove_last_error() or b"").decode("utf-8", "replace")

    def _checked(self, value):
        if value < 0:
            raise_for(self._last_error())
        return value

    def _string(self, value):
        if value is None:
            raise_for(self._last_error())
        return value.decode("utf-8", "replace")

    def __repr__(self):
        state = "closed" if self.closed else ", ".join(layer.name for layer in self.layers)
        return f"<grove.Graph {state}>"

    def __iter__(self):
        return iter(self.layers)

    def __len__(self):
        return len(self.layers)

    def __getitem__(self, name):
        """The layer with this export name or node id (UnknownLayerError, a KeyError, when none)."""
        return self.layer(name)

    def layer(self, name):
        index = self._lib.grove_layer_index(self._require(), str(name).encode())
        if index < 0:
            message = self._last_error()
            if message.startswith("no exported layer"):
                names = ", ".join(f"'{layer.name}'" for layer in self.layers)
                raise UnknownLayerError(f"{message} (its layers: {names})")
            raise_for(message)
        return self.layers[index]

    @property
    def chunk_size(self):
        """The side of a chunk; 0 when the world has no chunks."""
        self._require()
        return self.world.chunk

    def _points(self, function, layer, where):
        call = getattr(self._lib, function)
        error = ctypes.create_string_buffer(_CALL_MESSAGE_BYTES)
        count = call(self._require(), layer.encode(), *where, None, 0, error, len(error))
        if count < 0:
            raise_for(error.value.decode("utf-8", "replace"), RegionError)
        # the second call is served from libgrove's cache and gives the same count
        points = np.empty(count, dtype=_library.POINT_DTYPE)
        if count:
            written = call(self._require(), layer.encode(), *where, points.ctypes.data, count, error, len(error))
            if written < 0:
                raise_for(error.value.decode("utf-8", "replace"), RegionError)
            if written != count:
                raise GroveError(f"libgrove counted {count} points, then wrote {written}")
        return points

    def _attribute(self, layer, index, where):
        error = ctypes.create_string_buffer(_CALL_MESSAGE_BYTES)
        call = self._lib.grove_attribute_in_region
        count = call(self._require(), layer.encode(), index, *where, None, 0, error, len(error))
        if count < 0:
            raise_for(error.value.decode("utf-8", "replace"), RegionError)
        values = np.empty(count, dtype=np.float64)
        if count:
            written = call(self._require(), layer.encode(), index, *where, values.ctypes.data, count, error, len(error))
            if written < 0:
                raise_for(error.value.decode("utf-8", "replace"), RegionError)
            if written != count:
                raise GroveError(f"libgrove counted {count} points, then wrote {written} values")
        return values

    def stream(self, layers, *, workers=0, max_chunks=0, memory_cap=0, unload_margin=0.0):
        """A streaming session (grove.Session) of these layers (names or node ids) of a chunked world; 0: the
        defaults (libgrove's grove_session_options). Closed with the graph."""
        names = [str(name).encode() for name in ([layers] if isinstance(layers, str) else layers)]
        array = (ctypes.c_char_p * max(len(names), 1))(*names)
        options = _library.SessionOptions(int(workers), int(max_chunks), int(memory_cap), float(unload_margin))
        error = ctypes.create_string_buffer(_CALL_MESSAGE_BYTES)
        handle = self._lib.grove_session_open(self._require(), array, len(names), ctypes.byref(options), error, len(error))
        if not handle:
            message = error.value.decode("utf-8", "replace")
            if "no exported layer" in message:
                raise UnknownLayerError(message)
            raise_for(message, RegionError if "no chunks" in message else ValueError)
        session = Session(self, handle)
        self._children.add(session)
        return session

    def _setting(self, function, value, what):
        if getattr(self._lib, function)(self._require(), value) != 0:
            raise ValueError(f"{what}: {self._last_error()}")

    def cancel(self):
        """Every call on the graph running or started later raises CancelledError, until resume()."""
        self._checked(self._lib.grove_cancel(self._require()))

    def resume(self):
        self._checked(self._lib.grove_resume(self._require()))

    def set_threads(self, threads):
        """Threads one region call may use for its chunks (0: every core; default 1)."""
        self._setting("grove_set_threads", int(threads), "threads")

    def set_max_points(self, max_points):
        """The most points a region may hold by the packing bound (default 20,000,000)."""
        self._setting("grove_set_max_points", int(max_points), "max_points")

    def set_cache_bytes(self, size):
        """Bytes of placed chunks each lazy layer keeps (default 256 MiB)."""
        if int(size) < 0:
            raise ValueError(f"cache bytes must not be negative, not {size}")
        self._setting("grove_set_cache_bytes", int(size), "cache bytes")


def _opened(lib, handle, error):
    if not handle:
        raise GraphError(error.value.decode("utf-8", "replace") or "the graph did not open")
    try:
        return Graph(lib, handle)
    except BaseException:
        lib.grove_close(handle)
        raise


def open_file(path, overrides=None, *, max_points=None, library=None):
    """Opens and evaluates the graph file at `path` (its file params resolve against its folder)."""
    lib = _library.load(library)
    options, keep = _options(overrides, max_points, None)
    error = ctypes.create_string_buffer(_OPEN_MESSAGE_BYTES)
    handle = lib.grove_open_file_with(os.fsencode(path), ctypes.byref(options), error, len(error))
    return _opened(lib, handle, error)


def open_text(text, overrides=None, *, name="graph", base_dir=None, max_points=None, library=None):
    """Opens and evaluates a graph from its YAML text; messages name it `name`; its file params resolve
    against `base_dir` (default: the working folder)."""
    lib = _library.load(library)
    data = text.encode() if isinstance(text, str) else bytes(text)
    options, keep = _options(overrides, max_points, base_dir)
    error = ctypes.create_string_buffer(_OPEN_MESSAGE_BYTES)
    handle = lib.grove_open_with(data, len(data), str(name).encode(), ctypes.byref(options), error, len(error))
    return _opened(lib, handle, error)
