"""The package's failures: bad YAML, an unknown node type and a bad override raise GraphError with
grove-cli's located message; a closed graph raises ClosedError; a missing libgrove names what was tried;
1000 opens and closes leave the process's memory flat."""
import ctypes.util
import os
import subprocess
import tempfile
import unittest
from unittest import mock

from support import CLI, SOURCE, LIBRARY, grove

ENDLESS = os.path.join(SOURCE, "presets", "endless.grove.yaml")
SMALL = """grove: 1
world: {width: 300, height: 200, seed: 7}
nodes:
  dots:
    type: place_layer
    params: {radius: 3, seed: 1}
"""


def cli_errors(*args):
    run = subprocess.run([CLI, "eval", *args, "--format", "json"], capture_output=True, text=True)
    assert run.returncode != 0, f"grove-cli eval {args} succeeded"
    return run.stderr.rstrip("\n")


class GraphErrorsAreLocated(unittest.TestCase):
    def open_bad(self, text, **kwargs):
        """The message of opening `text` as a file, after checking it is grove-cli's for the same file."""
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "bad.grove.yaml")
            with open(path, "w") as f:
                f.write(text)
            with self.assertRaises(grove.GraphError) as caught:
                grove.open(path, library=LIBRARY, **kwargs)
            args = [a for s in kwargs.get("overrides", []) for a in ("--set", s)]
            self.assertEqual(caught.exception.message, cli_errors(path, *args))
            return caught.exception, path

    def test_unknown_node_type(self):
        e, path = self.open_bad(SMALL.replace("place_layer", "place_layr"))
        self.assertIn("unknown node type 'place_layr'", str(e))
        self.assertEqual([(p.file, p.line, p.severity) for p in e.problems], [(path, 5, "error")])
        self.assertGreater(e.problems[0].column, 0)

    def test_bad_yaml(self):
        e, path = self.open_bad(SMALL + "  oops: {type: [\n")
        self.assertTrue(str(e).startswith(path + ":"), str(e))
        self.assertGreaterEqual(e.problems[0].line, 7)

    def test_text_is_located_under_its_name(self):
        with self.assertRaises(grove.GraphError) as caught:
            grove.open_text(SMALL.replace("radius: 3", "radius: -3"), name="mine.grove.yaml", library=LIBRARY)
        self.assertEqual(caught.exception.problems[0].file, "mine.grove.yaml")
        self.assertEqual(caught.exception.problems[0].line, 6)

    def test_bad_overrides_as_grove_cli_set(self):
        for sets, says in ((["dots.radiuz=4"], "did you mean 'radius'"), (["dotz.radius=4"], "no node 'dotz'"),
                           (["dots.radius=abc"], "radius"), (["dots"], "expected NODE.PARAM=VALUE")):
            with self.subTest(sets=sets):
                e, path = self.open_bad(SMALL, overrides=sets)
                self.assertTrue(str(e).startswith(f"{path}: error: --set {sets[0]}: "), str(e))
                self.assertIn(says, str(e))

    def test_overrides_of_the_wrong_kind(self):
        with self.assertRaises(TypeError):
            grove.open(ENDLESS, "rocks.radius=3", library=LIBRARY)
        with self.assertRaises(TypeError):
            grove.open(ENDLESS, [("rocks.radius", 3)], library=LIBRARY)

    def test_missing_file(self):
        with self.assertRaisesRegex(grove.GraphError, "nowhere.grove.yaml.*cannot open"):
            grove.open("/nowhere/nowhere.grove.yaml", library=LIBRARY)


class ClosedGraphsRaise(unittest.TestCase):
    def test_with_closes_and_every_later_call_raises(self):
        with grove.open_text(SMALL, library=LIBRARY) as graph:
            layer = graph["dots"]
            self.assertGreater(len(layer.points()), 100)
        self.assertTrue(graph.closed)
        for call in (layer.points, lambda: layer.region(0, 0, 10, 10), lambda: layer.chunk(0, 0),
                     lambda: graph["dots"], graph.cancel, graph.resume, lambda: graph.set_threads(2),
                     lambda: graph.set_max_points(10), lambda: graph.set_cache_bytes(10), lambda: graph.chunk_size):
            with self.assertRaisesRegex(grove.ClosedError, "the graph is closed"):
                call()
        graph.close()  # twice: nothing happens
        with self.assertRaises(grove.ClosedError):
            with graph:
                pass

    def test_a_graph_without_chunks_has_no_chunk(self):
        with grove.open_text(SMALL, library=LIBRARY) as graph:
            self.assertEqual(graph.chunk_size, 0)
            with self.assertRaisesRegex(grove.RegionError, "chunk"):
                graph["dots"].chunk(0, 0)


def resident_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class OpenCloseCycles(unittest.TestCase):
    def test_a_thousand_cycles_keep_memory_flat(self):
        def cycle(n):
            for _ in range(n):
                with grove.open_text(SMALL, library=LIBRARY) as graph:
                    graph["dots"].points()

        cycle(50)  # allocators and caches settle
        before = resident_bytes()
        cycle(1000)
        grown = resident_bytes() - before
        # a graph of ~2,000 points kept per cycle would be well over 100 MB; allocator noise is far below 32 MB
        self.assertLess(grown, 32 << 20, f"resident memory grew {grown} bytes over 1000 cycles")


class FindingLibgrove(unittest.TestCase):
    def test_an_explicit_path_that_is_not_there(self):
        with self.assertRaises(grove.LibraryNotFoundError) as caught:
            grove.open(ENDLESS, library="/nowhere/libgrove.so")
        self.assertIn("/nowhere/libgrove.so (the library argument): no such file", str(caught.exception))
        self.assertIsInstance(caught.exception, OSError)

    def test_the_environment_variable_then_the_search_are_named(self):
        from grove import _library
        with mock.patch.dict(os.environ, {"GROVE_LIBRARY": "/nowhere/libgrove.so.0"}):
            with self.assertRaisesRegex(grove.LibraryNotFoundError, r"/nowhere/libgrove.so.0 \(\$GROVE_LIBRARY\)"):
                _library.load()
        environment = {k: v for k, v in os.environ.items() if k != "GROVE_LIBRARY"}
        with mock.patch.dict(os.environ, environment, clear=True), \
                mock.patch.object(_library, "_SONAMES", ("libgrove-absent.so.0",)), \
                mock.patch.object(ctypes.util, "find_library", return_value=None):
            with self.assertRaises(grove.LibraryNotFoundError) as caught:
                _library.load()
        message = str(caught.exception)
        self.assertIn("libgrove-absent.so.0 (next to the package): no such file", message)
        self.assertIn("libgrove-absent.so.0 (the library search path)", message)
        self.assertIn("GROVE_LIBRARY", message)

    def test_the_environment_variable_is_used(self):
        with mock.patch.dict(os.environ, {"GROVE_LIBRARY": LIBRARY}):
            self.assertEqual(grove.version(), "0.1.0")
        self.assertEqual(grove.version(LIBRARY), grove.__version__)


if __name__ == "__main__":
    unittest.main()
