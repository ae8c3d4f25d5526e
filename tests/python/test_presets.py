"""Every preset with layers, opened through the package, against grove-cli eval --format json of the same
file: the same layers, types and heights, and every point's bytes in export order."""
import glob
import os
import unittest

from support import SOURCE, LIBRARY, assert_same_points, cli_json, grove


# the shipped graphs and the group files, which evaluate on their own too
PRESETS = sorted(glob.glob(os.path.join(SOURCE, "presets", "*.grove.yaml"))
                 + glob.glob(os.path.join(SOURCE, "presets", "groups", "*.grove.yaml")))


class PresetsEqualGroveCli(unittest.TestCase):
    def test_every_preset_equals_grove_cli_bit_for_bit(self):
        compared = 0
        for path in PRESETS:
            name = os.path.basename(path)
            with self.subTest(preset=name), grove.open(path, library=LIBRARY) as graph:
                if graph.world.endless or not len(graph):  # the endless one needs a region: test_regions
                    continue
                export = cli_json(path)
                self.assertEqual([layer.name for layer in graph], [layer["name"] for layer in export["layers"]])
                for layer, want in zip(graph, export["layers"]):
                    self.assertEqual(list(layer.types), [t["name"] for t in want["types"]], f"{name}: {layer.name}")
                    if want["points"]:
                        self.assertEqual(layer.has_z, "z" in want["points"][0], f"{name}: {layer.name} heights")
                    assert_same_points(self, layer.points(), want["points"], f"{name}: {layer.name}")
                # a tileable world says so (world.wrap), and only that one
                self.assertEqual((graph.world.wrap_x, graph.world.wrap_y), (name == "meadow_tile.grove.yaml",) * 2, name)
                compared += 1
        self.assertGreaterEqual(compared, 15, "presets compared")


if __name__ == "__main__":
    unittest.main()
