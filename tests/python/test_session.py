"""A streaming session through the package: chunks around a moving source, each handed over once and equal to
Layer.chunk on the same graph byte for byte, unloads past the margin, and the errors as exceptions."""
import math
import os
import unittest

from support import SOURCE, LIBRARY, grove

ENDLESS = os.path.join(SOURCE, "tests", "capi", "endless.grove.yaml")
WHOLE = os.path.join(SOURCE, "tests", "capi", "whole.grove.yaml")
CHUNK = 128


def square_distance(x, y, i, j):
    dx = max(i * CHUNK - x, 0.0, x - (i + 1) * CHUNK)
    dy = max(j * CHUNK - y, 0.0, y - (j + 1) * CHUNK)
    return math.hypot(dx, dy)


class SessionStreamsChunks(unittest.TestCase):
    def test_a_walk_hands_each_chunk_over_once_with_the_chunk_calls_bytes(self):
        with grove.open(ENDLESS, library=LIBRARY) as graph:
            resident = set()
            with graph.stream(["trees", "rocks"], workers=2, unload_margin=32) as session:
                for step in range(240):
                    x, y, radius = 4.0 * step, -40.0, 300.0
                    update = session.update([(x, y, radius)], budget_us=500)
                    for chunk in update.ready:
                        key = (chunk.layer, chunk.i, chunk.j)
                        self.assertNotIn(key, resident, f"{key} handed over twice while resident")
                        self.assertLessEqual(square_distance(x, y, chunk.i, chunk.j), radius)
                        self.assertEqual(chunk.points.tobytes(), graph[chunk.layer].chunk(chunk.i, chunk.j).tobytes())
                        resident.add(key)
                    for key in update.unload:
                        self.assertIn(key, resident)
                        self.assertGreater(square_distance(x, y, key[1], key[2]), radius + 32)
                        resident.remove(key)
                    session.wait()
                for _ in range(10000):  # stand still until everything in the radius is there
                    update = session.update([(x, y, radius)])
                    resident.update((c.layer, c.i, c.j) for c in update.ready)
                    if update.pending == 0 and not update.ready:
                        break
                    session.wait()
                wanted = {(name, i, j) for name in ("trees", "rocks") for i in range(-5, 15) for j in range(-5, 5)
                          if square_distance(x, y, i, j) <= radius}
                self.assertLessEqual(wanted, resident)
                stats = session.stats()
                self.assertEqual(stats["resident"], len(resident))
                self.assertGreater(stats["evicted"], 0)
                self.assertEqual(len(session.update([]).unload), len(resident), "no sources: everything unloads")

    def test_bad_calls_raise_with_libgroves_messages(self):
        with grove.open(ENDLESS, library=LIBRARY) as graph:
            with self.assertRaises(grove.UnknownLayerError) as caught:
                graph.stream(["tress"])
            self.assertIn("did you mean 'trees'", str(caught.exception))
            with self.assertRaises(ValueError) as caught:
                graph.stream("trees", workers=-1)
            self.assertIn("workers must be", str(caught.exception))
            session = graph.stream("trees", workers=1)
            with self.assertRaises(ValueError) as caught:
                session.update([(math.nan, 0, 10)])
            self.assertIn("source 0 is at (NaN, 0)", str(caught.exception))
            with self.assertRaises(ValueError) as caught:
                session.update([(0, 0, 1e12)])
            self.assertIn("max_chunks", str(caught.exception))
            graph.close()  # closes its sessions too
            with self.assertRaises(grove.ClosedError):
                session.update([(0, 0, 10)])
        with grove.open(WHOLE, library=LIBRARY) as whole:
            with self.assertRaises(grove.RegionError) as caught:
                whole.stream("trees")
            self.assertIn("no chunks", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
