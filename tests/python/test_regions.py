"""presets/endless.grove.yaml through the package: a region and a chunk against grove-cli eval --region, param
overrides against grove-cli --set, the world's info, and the graph's settings."""
import math
import os
import threading
import unittest

import numpy as np

from support import SOURCE, LIBRARY, assert_same_points, cli_json, grove

ENDLESS = os.path.join(SOURCE, "presets", "endless.grove.yaml")
REGION = (-300.5, -140, 420, 333.25)  # across chunk borders, around the origin


def region_arg(x0, y0, x1, y1):
    return "--region", ",".join(repr(float(v)) for v in (x0, y0, x1, y1))


def layer_named(export, name):
    return next(layer for layer in export["layers"] if layer["name"] == name)


class EndlessRegionsEqualGroveCli(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.graph = grove.open(ENDLESS, library=LIBRARY)

    @classmethod
    def tearDownClass(cls):
        cls.graph.close()

    def test_world(self):
        self.assertEqual(self.graph.world, grove.World(0.0, 0.0, 256.0, True, 2026, False, False))
        self.assertEqual(self.graph.chunk_size, 256.0)

    def test_a_region_equals_grove_cli_region(self):
        export = cli_json(ENDLESS, *region_arg(*REGION))
        self.assertEqual([layer.name for layer in self.graph], [layer["name"] for layer in export["layers"]])
        for layer in self.graph:
            want = layer_named(export, layer.name)["points"]
            self.assertGreater(len(want), 50, layer.name)
            assert_same_points(self, layer.region(*REGION), want, f"{layer.name} in {REGION}")

    def test_a_chunk_equals_grove_cli_region_of_that_chunk(self):
        c = self.graph.chunk_size
        for i, j in ((0, 0), (-1, 2)):
            export = cli_json(ENDLESS, *region_arg(i * c, j * c, (i + 1) * c, (j + 1) * c))
            for layer in self.graph:
                assert_same_points(self, layer.chunk(i, j), layer_named(export, layer.name)["points"],
                                   f"{layer.name} chunk {i},{j}")

    def test_points_fields_are_views_of_one_array(self):
        rocks = self.graph["rocks"].region(*REGION)
        self.assertEqual(rocks.dtype.names, ("x", "y", "z", "r", "rotation", "scale", "id", "type", "reserved"))
        self.assertEqual(rocks.itemsize, 64)
        self.assertTrue(np.all((rocks["x"] >= REGION[0]) & (rocks["x"] < REGION[2])))
        self.assertTrue(np.all((rocks["rotation"] >= 0) & (rocks["rotation"] <= 360)))
        self.assertEqual(len(np.unique(rocks["id"])), len(rocks))

    def test_endless_world_has_no_whole_layer(self):
        with self.assertRaisesRegex(grove.RegionError, "endless"):
            self.graph["rocks"].points()

    def test_beyond_the_chunk_range_and_bad_regions_raise(self):
        with self.assertRaisesRegex(grove.RegionError, "beyond the chunk range"):
            self.graph["rocks"].region(1e15, 0, 1e15 + 1, 1)
        with self.assertRaisesRegex(grove.RegionError, "NaN"):
            self.graph["rocks"].region(math.nan, 0, 1, 1)
        with self.assertRaisesRegex(grove.RegionError, "inverted"):
            self.graph["rocks"].region(0, 5, 1, 1)
        self.assertEqual(len(self.graph["rocks"].region(3, 3, 3, 90)), 0)

    def test_layers_by_export_name_or_node_id_and_unknown_layers(self):
        self.assertIs(self.graph["rocks"], self.graph.layers[[layer.name for layer in self.graph].index("rocks")])
        with self.assertRaises(grove.UnknownLayerError) as caught:
            self.graph["rockz"]
        self.assertIn("no exported layer 'rockz'", str(caught.exception))
        self.assertIn("'rocks'", str(caught.exception))
        self.assertIsInstance(caught.exception, KeyError)

    def test_threads_give_the_same_bytes(self):
        with grove.open(ENDLESS, library=LIBRARY) as graph:
            graph.set_threads(0)
            graph.set_cache_bytes(1 << 20)
            results = {}

            def ask(name):
                results[name] = graph["trees"].region(*REGION).tobytes()

            threads = [threading.Thread(target=ask, args=(k,)) for k in range(3)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            self.assertEqual(len(set(results.values())), 1)
            self.assertEqual(results[0], self.graph["trees"].region(*REGION).tobytes())

    def test_cancel_then_resume(self):
        with grove.open(ENDLESS, library=LIBRARY) as graph:
            graph.cancel()
            with self.assertRaisesRegex(grove.CancelledError, "^cancelled$"):
                graph["rocks"].chunk(0, 0)
            graph.resume()
            self.assertGreater(len(graph["rocks"].chunk(0, 0)), 0)

    def test_close_while_another_thread_asks(self):
        graph = grove.open(ENDLESS, library=LIBRARY)
        outcome = []

        def ask():
            try:
                outcome.append(len(graph["trees"].region(-3000, -3000, 3000, 3000)))
            except (grove.CancelledError, grove.ClosedError) as e:
                outcome.append(type(e))

        worker = threading.Thread(target=ask)
        worker.start()
        graph.close()  # the call in flight finishes, or ends cancelled: never a crash
        worker.join()
        self.assertEqual(len(outcome), 1)
        self.assertTrue(outcome[0] in (grove.CancelledError, grove.ClosedError) or outcome[0] > 1000, outcome)
        with self.assertRaises(grove.ClosedError):
            graph["trees"].region(0, 0, 1, 1)

    def test_max_points_refuses_a_region_before_placing(self):
        with grove.open(ENDLESS, library=LIBRARY) as graph:
            graph.set_max_points(100)
            with self.assertRaisesRegex(grove.RegionError, "100"):
                graph["trees"].region(*REGION)
            with self.assertRaises(ValueError):
                graph.set_max_points(-1)
        with grove.open(ENDLESS, library=LIBRARY, max_points=100) as graph:
            with self.assertRaisesRegex(grove.RegionError, "100"):
                graph["trees"].region(*REGION)


class OverridesEqualGroveCliSet(unittest.TestCase):
    SETS = ["rocks.radius=12", "rocks.seed=5", "rocks.scale=[0.5, 1]"]

    def check(self, graph, sets):
        export = cli_json(ENDLESS, *region_arg(*REGION), *[a for s in sets for a in ("--set", s)])
        for layer in graph:
            assert_same_points(self, layer.region(*REGION), layer_named(export, layer.name)["points"],
                               f"{layer.name} with {sets}")

    def test_a_list_of_assignments(self):
        with grove.open(ENDLESS, self.SETS, library=LIBRARY) as graph:
            self.check(graph, self.SETS)

    def test_a_dict_of_values(self):
        with grove.open(ENDLESS, {"rocks.radius": 12, "rocks.seed": 5, "rocks.scale": [0.5, 1]},
                        library=LIBRARY) as graph:
            self.check(graph, self.SETS)

    def test_overrides_change_the_points(self):
        with grove.open(ENDLESS, {"rocks.radius": 12}, library=LIBRARY) as graph:
            plain = grove.open(ENDLESS, library=LIBRARY)
            self.assertNotEqual(graph["rocks"].region(*REGION).tobytes(), plain["rocks"].region(*REGION).tobytes())
            plain.close()

    def test_text_with_overrides_and_base_dir(self):
        with open(ENDLESS) as f:
            text = f.read()
        with grove.open_text(text, {"rocks.radius": 12, "rocks.seed": 5, "rocks.scale": [0.5, 1]}, name="endless",
                             base_dir=os.path.dirname(ENDLESS), library=LIBRARY) as graph:
            self.check(graph, self.SETS)


if __name__ == "__main__":
    unittest.main()
