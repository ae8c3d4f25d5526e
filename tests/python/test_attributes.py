"""Attributes through libgrove and the package: a layer's attribute names and values equal grove-cli's JSON export
(chain order, every point, bit for bit), by region too, and a bad attribute is a clear error."""
import ctypes
import os
import tempfile
import unittest

import numpy as np

from support import LIBRARY, cli_json, grove

GRAPH = """grove: 1
world: {width: 400, height: 300, seed: 11}
nodes:
  moist: {type: value_noise, params: {frequency: 0.02}}
  slope: {type: gradient_noise, params: {frequency: 0.01}}
  rocks: {type: place_layer, params: {radius: 40}}
  trees: {type: place_layer, inputs: {obstacles: rocks.all}, params: {radius: 22, name: oaks, seed: 2}}
  wet: {type: attribute, inputs: {points: trees, field: moist}, params: {name: moisture}}
  tall: {type: attribute, inputs: {points: wet, field: slope}, params: {name: height}}
"""


class AttributesEqualGroveCli(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.folder.name, "forest.grove.yaml")
        with open(cls.path, "w", encoding="utf-8") as f:
            f.write(GRAPH)
        cls.export = cli_json(cls.path)
        cls.graph = grove.open(cls.path, library=LIBRARY)

    @classmethod
    def tearDownClass(cls):
        cls.graph.close()
        cls.folder.cleanup()

    def test_names_in_chain_order(self):
        self.assertEqual([layer.name for layer in self.graph], ["rocks", "oaks"])
        self.assertEqual(self.graph["rocks"].attributes, ())
        self.assertEqual(self.graph["oaks"].attributes, ("moisture", "height"))
        self.assertEqual(self.graph["trees"].attributes, ("moisture", "height"))  # by the source's node id

    def test_values_equal_the_json_export(self):
        want = next(layer for layer in self.export["layers"] if layer["name"] == "oaks")["points"]
        self.assertGreater(len(want), 20)
        layer = self.graph["oaks"]
        for name in layer.attributes:
            got = layer.attribute(name)
            expected = np.array([p["attributes"][name] for p in want], dtype=np.float64)
            self.assertEqual(got.tobytes(), expected.tobytes(), name)

    def test_a_region_gives_the_values_of_its_points(self):
        layer = self.graph["oaks"]
        region = (50.5, 20, 300, 260.25)
        points = layer.region(*region)
        values = layer.attribute("moisture", *region)
        whole = layer.points()
        by_id = dict(zip(whole["id"].tolist(), layer.attribute("moisture").tolist()))
        self.assertEqual(len(values), len(points))
        self.assertGreater(len(points), 5)
        self.assertEqual(values.tolist(), [by_id[i] for i in points["id"].tolist()])

    def test_an_unknown_attribute_is_a_clear_error(self):
        with self.assertRaisesRegex(KeyError, "no attribute 'wind'.*moisture"):
            self.graph["oaks"].attribute("wind")
        lib = self.graph._lib
        error = ctypes.create_string_buffer(512)
        count = lib.grove_attribute_in_region(self.graph._require(), b"oaks", 2, 0.0, 0.0, 10.0, 10.0, None, 0, error,
                                              len(error))
        self.assertEqual(count, -1)
        self.assertIn("no attribute 2 in layer 'oaks': it has 2", error.value.decode())


if __name__ == "__main__":
    unittest.main()
