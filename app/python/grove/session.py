"""A streaming session over libgrove (grove_session_*): the chunks of a graph's layers around moving
sources, placed on libgrove's worker threads, handed over by update() as numpy arrays."""
import collections
import ctypes

import numpy as np

from . import _library
from .errors import ClosedError, GroveError
from .native import _Native

Chunk = collections.namedtuple("Chunk", "layer i j points")
Chunk.__doc__ = "A chunk handed over: its layer's name, its indices and its points (a numpy array of POINT_DTYPE)."
Update = collections.namedtuple("Update", "ready unload pending")
Update.__doc__ = ("What an update gave: ready (Chunks to load, nearest a source first), unload ((layer, i, j) of "
                  "delivered chunks now beyond every radius + margin), pending (wanted chunks not delivered yet).")


class Session(_Native):
    """Graph.stream(...): update(sources) each frame; close() (or leaving a `with` block, or closing the
    graph) cancels its work and joins its threads. Used from one thread at a time."""

    _what = "session"

    def __init__(self, graph, handle):
        super().__init__(graph._lib, handle, graph._lib.grove_session_close)
        self._graph = graph

    def _fail(self, error=ValueError):
        message = (self._lib.grove_last_error() or b"").decode("utf-8", "replace")
        if message.startswith("not an open session"):
            raise ClosedError(message)
        raise (GroveError if "graph was closed" in message else error)(message)

    def update(self, sources, budget_us=0):
        """sources: (x, y, radius) triples. Hands over what is ready for about budget_us microseconds (0: all);
        the points are copied, so they stay valid after the next update."""
        sources = list(sources)
        array = (_library.Source * max(len(sources), 1))(*[_library.Source(*map(float, s)) for s in sources])
        result = _library.UpdateResult()
        if self._lib.grove_session_update(self._require(), array, len(sources), int(budget_us), ctypes.byref(result)):
            self._fail()
        names = self._graph.layers
        ready = []
        for k in range(result.ready_count):
            c = result.ready[k]
            points = np.empty(c.count, dtype=_library.POINT_DTYPE)
            if c.count:
                ctypes.memmove(points.ctypes.data, c.points, c.count * _library.POINT_DTYPE.itemsize)
            ready.append(Chunk(names[c.layer].name, c.i, c.j, points))
        unload = [(names[result.unload[k].layer].name, result.unload[k].i, result.unload[k].j)
                  for k in range(result.unload_count)]
        return Update(ready, unload, result.pending)

    def wait(self, timeout=60.0):
        """Blocks until a chunk is ready, nothing is left to compute, the memory cap stops the workers, or
        `timeout` seconds passed; the chunks ready."""
        ready = self._lib.grove_session_wait(self._require(), int(timeout * 1e6))
        if ready < 0:
            self._fail()
        return ready

    def stats(self):
        """The counters as a dict: queued, computing, ready, resident, delivered, evicted, cancelled, update_us,
        worker_us, bytes_held, memory_cap."""
        out = _library.SessionStats()
        if self._lib.grove_session_get_stats(self._require(), ctypes.byref(out)):
            self._fail()
        return {name: getattr(out, name) for name, _ in _library.SessionStats._fields_}
