"""What libgrove hands out and Python gives back once: a graph, or a streaming session that belongs to one."""
import threading
import weakref

from .errors import ClosedError


class _Native:
    """Something libgrove handed out and Python must give back once: a graph (and the streaming
    sessions that belong to one). close() is idempotent; using it after close() raises ClosedError."""

    _what = "object"

    def __init__(self, lib, handle, release):
        self._lib, self._handle, self._release = lib, handle, release
        self._children = weakref.WeakSet()  # closed with this one (a graph's sessions)
        self._close_lock = threading.Lock()

    @property
    def closed(self):
        return self._handle is None

    def _require(self):
        handle = self._handle
        if handle is None:
            raise ClosedError(f"the {self._what} is closed")
        return handle

    def close(self):
        """Frees it in libgrove; calls running in other threads end with CancelledError."""
        with self._close_lock:
            handle, self._handle = self._handle, None
        if handle is not None:
            for child in list(self._children):
                child.close()
            self._release(handle)

    def __enter__(self):
        self._require()
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown: libgrove may be gone
            pass
