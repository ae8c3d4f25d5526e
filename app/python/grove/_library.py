"""Finding and loading libgrove, and its functions' ctypes prototypes (grove.h, declared once here)."""
import ctypes
import ctypes.util
import os
import threading

try:
    import numpy as np
except ImportError as e:  # say what to install rather than only what is missing
    raise ImportError(f"the grove package needs numpy ({e}); Debian: apt-get install python3-numpy") from e

from .errors import LibraryNotFoundError

# grove_point: 64 bytes, no padding (grove.h); numpy reads libgrove's array as it is
POINT_DTYPE = np.dtype([("x", np.float64), ("y", np.float64), ("z", np.float64), ("r", np.float64),
                        ("rotation", np.float64), ("scale", np.float64), ("id", np.uint64),
                        ("type", np.int32), ("reserved", np.int32)])
assert POINT_DTYPE.itemsize == 64

ENVIRONMENT_VARIABLE = "GROVE_LIBRARY"
_HERE = os.path.dirname(os.path.abspath(__file__))
# the standard search (LD_LIBRARY_PATH, the linker cache after `cmake --install` and ldconfig)
_SONAMES = ("libgrove.so.0", "libgrove.so")


class WorldInfo(ctypes.Structure):
    _fields_ = [("width", ctypes.c_double), ("height", ctypes.c_double), ("chunk", ctypes.c_double),
                ("endless", ctypes.c_int32), ("seed", ctypes.c_int32)]


class Options(ctypes.Structure):
    _fields_ = [("max_points", ctypes.c_longlong), ("base_dir", ctypes.c_char_p),
                ("sets", ctypes.POINTER(ctypes.c_char_p)), ("set_count", ctypes.c_size_t)]


class SessionOptions(ctypes.Structure):
    _fields_ = [("workers", ctypes.c_int), ("max_chunks", ctypes.c_int), ("memory_cap", ctypes.c_longlong),
                ("unload_margin", ctypes.c_double)]


class Source(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("radius", ctypes.c_double)]


class SessionChunk(ctypes.Structure):
    _fields_ = [("layer", ctypes.c_int), ("i", ctypes.c_int), ("j", ctypes.c_int), ("points", ctypes.c_void_p),
                ("count", ctypes.c_longlong)]


class ChunkRef(ctypes.Structure):
    _fields_ = [("layer", ctypes.c_int), ("i", ctypes.c_int), ("j", ctypes.c_int)]


class UpdateResult(ctypes.Structure):
    _fields_ = [("ready", ctypes.POINTER(SessionChunk)), ("ready_count", ctypes.c_int),
                ("unload", ctypes.POINTER(ChunkRef)), ("unload_count", ctypes.c_int), ("pending", ctypes.c_int)]


class SessionStats(ctypes.Structure):
    _fields_ = [(name, ctypes.c_int) for name in ("queued", "computing", "ready", "resident")] + [
        (name, ctypes.c_longlong) for name in ("delivered", "evicted", "cancelled", "update_us", "worker_us",
                                               "bytes_held", "memory_cap")]


def _declare(lib):
    G = S = ctypes.c_void_p  # a graph's or a session's handle: a number, never dereferenced
    text, size = ctypes.c_char_p, ctypes.c_size_t
    out = ctypes.c_void_p  # a numpy array's data (POINT_DTYPE) or NULL
    prototypes = {
        "grove_version": (ctypes.c_char_p, []),
        "grove_open_with": (G, [text, size, text, ctypes.POINTER(Options), text, size]),
        "grove_open_file_with": (G, [text, ctypes.POINTER(Options), text, size]),
        "grove_close": (None, [G]),
        "grove_layer_count": (ctypes.c_int, [G]),
        "grove_layer_name": (ctypes.c_char_p, [G, ctypes.c_int]),
        "grove_layer_index": (ctypes.c_int, [G, text]),
        "grove_layer_type_count": (ctypes.c_int, [G, ctypes.c_int]),
        "grove_layer_type_name": (ctypes.c_char_p, [G, ctypes.c_int, ctypes.c_int]),
        "grove_layer_has_z": (ctypes.c_int, [G, ctypes.c_int]),
        "grove_layer_attribute_count": (ctypes.c_int, [G, ctypes.c_int]),
        "grove_layer_attribute_name": (ctypes.c_char_p, [G, ctypes.c_int, ctypes.c_int]),
        "grove_attribute_in_region": (ctypes.c_longlong, [G, text, ctypes.c_int] + [ctypes.c_double] * 4
                                      + [out, ctypes.c_longlong, text, size]),
        "grove_world": (ctypes.c_int, [G, ctypes.POINTER(WorldInfo)]),
        "grove_world_wrap": (ctypes.c_int, [G, ctypes.POINTER(ctypes.c_int32), ctypes.POINTER(ctypes.c_int32)]),
        "grove_chunk_size": (ctypes.c_double, [G]),
        "grove_points_in_region": (ctypes.c_longlong, [G, text] + [ctypes.c_double] * 4
                                   + [out, ctypes.c_longlong, text, size]),
        "grove_points_in_chunk": (ctypes.c_longlong, [G, text, ctypes.c_int, ctypes.c_int, out, ctypes.c_longlong,
                                                      text, size]),
        "grove_cancel": (ctypes.c_int, [G]),
        "grove_resume": (ctypes.c_int, [G]),
        "grove_set_threads": (ctypes.c_int, [G, ctypes.c_int]),
        "grove_set_max_points": (ctypes.c_int, [G, ctypes.c_longlong]),
        "grove_set_cache_bytes": (ctypes.c_int, [G, ctypes.c_size_t]),
        "grove_session_open": (S, [G, ctypes.POINTER(ctypes.c_char_p), ctypes.c_int, ctypes.POINTER(SessionOptions),
                                   text, size]),
        "grove_session_update": (ctypes.c_int, [S, ctypes.POINTER(Source), ctypes.c_int, ctypes.c_longlong,
                                                ctypes.POINTER(UpdateResult)]),
        "grove_session_wait": (ctypes.c_int, [S, ctypes.c_longlong]),
        "grove_session_get_stats": (ctypes.c_int, [S, ctypes.POINTER(SessionStats)]),
        "grove_session_close": (None, [S]),
        "grove_last_error": (ctypes.c_char_p, []),
    }
    for name, (restype, argtypes) in prototypes.items():
        function = getattr(lib, name)  # AttributeError: a libgrove older than this package
        function.restype = restype
        function.argtypes = argtypes
    return lib


_loaded = {}  # path as asked -> the loaded library
_lock = threading.Lock()


def _candidates(explicit):
    if explicit is not None:
        return [("the library argument", os.fspath(explicit))]
    if os.environ.get(ENVIRONMENT_VARIABLE):
        return [(f"${ENVIRONMENT_VARIABLE}", os.environ[ENVIRONMENT_VARIABLE])]
    tried = [("next to the package", os.path.join(_HERE, name)) for name in _SONAMES]
    tried += [("the library search path", name) for name in _SONAMES]
    found = ctypes.util.find_library("grove")
    if found and found not in _SONAMES:
        tried.append(("ctypes.util.find_library", found))
    return tried


def load(library=None):
    """libgrove as a ctypes library: `library` (a path) if given, else $GROVE_LIBRARY, else libgrove.so next
    to this package, else the system's library search. LibraryNotFoundError lists what was tried."""
    failures = []
    with _lock:
        for where, path in _candidates(library):
            if path in _loaded:
                return _loaded[path]
            if os.sep in path and not os.path.exists(path):
                failures.append(f"{path} ({where}): no such file")
                continue
            try:
                lib = _declare(ctypes.CDLL(path))
            except (OSError, AttributeError) as e:
                failures.append(f"{path} ({where}): {e}")
                continue
            _loaded[path] = lib
            return lib
    raise LibraryNotFoundError("libgrove could not be loaded; tried:\n  " + "\n  ".join(failures)
                               + f"\nbuild it (cmake --build build --target grove_capi) and pass library=PATH"
                               f" or set {ENVIRONMENT_VARIABLE}=PATH/libgrove.so")
