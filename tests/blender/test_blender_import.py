"""The Blender add-on (app/blender/grove_blender) in a headless Blender against grove-cli's JSON export:

    blender -b --factory-startup --python-exit-code 1 --python tests/blender/test_blender_import.py \
            -- GROVE_CLI LIBGROVE

Every instance Blender evaluates (its depsgraph, what the viewport and renders draw) is compared with the
point grove-cli exports, read here with Python's json module: per layer the count, and per instance its
location, turn about Z and scale, through the mapping the add-on documents (X = x, Y = -y, Z = z, a turn
of -rot degrees about +Z, scale s). Blender holds these as float32, so numbers agree to 1e-5 relative to
max(1, |value|). Re-imports must update the same collections and objects and leave no duplicates."""
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import bpy

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.normpath(os.path.join(HERE, "..", ".."))
ARGS = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
if len(ARGS) != 2:
    sys.exit("usage: blender -b --factory-startup --python test_blender_import.py -- GROVE_CLI LIBGROVE")
CLI, LIBRARY = ARGS
os.environ["GROVE_LIBRARY"] = LIBRARY  # how the add-on's graph import finds libgrove here

sys.path.insert(0, os.path.join(SOURCE, "app", "blender"))
import addon_utils  # noqa: E402

# enabled as Blender enables an installed add-on: registered, its preferences in place
assert addon_utils.enable("grove_blender", default_set=True, handle_error=None) is not None, "the add-on enables"

ISLAND = os.path.join(SOURCE, "presets", "island_world.grove.yaml")  # 4 layers, two with two types, turns
ASTEROIDS = os.path.join(SOURCE, "presets", "asteroids.grove.yaml")  # heights (z) and scales
TOLERANCE = 1e-5


# ---------------------------------------------------------------- the reference: grove-cli and json

def cli_json(graph, *args):
    """grove-cli eval GRAPH ARGS --format json, parsed with Python's json module."""
    run = subprocess.run([CLI, "eval", graph, *args, "--format", "json", "--quiet"], capture_output=True, text=True)
    if run.returncode != 0:
        raise AssertionError(f"grove-cli eval {graph} {' '.join(args)} failed:\n{run.stderr}")
    return json.loads(run.stdout)


def write_json(document, path):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(document, f)
    return path


def expected_by_type(layer):
    """{type name: [point, ...]} of a JSON layer, each type's points in export order."""
    names = {t["index"]: t["name"] for t in layer["types"]}
    out = {}
    for point in layer["points"]:
        out.setdefault(names[point["t"]], []).append(point)
    return out


# ---------------------------------------------------------------- what Blender made and evaluates

def import_file(path, overrides=""):
    return bpy.ops.grove.import_points(filepath=path, overrides=overrides)


def root_of(path):
    roots = [c for c in bpy.data.collections if c.get("grove_source") == os.path.abspath(path)]
    assert len(roots) == 1, f"{len(roots)} Grove collections for {path}"
    return roots[0]


def evaluated_instances(root):
    """{(layer, type): [(matrix_world, instanced object's name), ...]} of the root's instancing objects,
    from Blender's evaluated depsgraph, each list in the order of the instance index."""
    owners = {}
    for layer_collection in root.children:
        for obj in layer_collection.objects:
            owners[obj.name] = (layer_collection["grove_layer"], obj["grove_type"])
    found = {key: [] for key in owners.values()}
    depsgraph = bpy.context.evaluated_depsgraph_get()
    for instance in depsgraph.object_instances:
        if instance.is_instance and instance.parent.original.name in owners:
            key = owners[instance.parent.original.name]
            found[key].append((instance.persistent_id[0], instance.matrix_world.copy(), instance.object.original.name))
    return {key: [(m, name) for _, m, name in sorted(items, key=lambda item: item[0])] for key, items in found.items()}


def close(got, want):
    return abs(got - want) <= TOLERANCE * max(1.0, abs(want))


def instance_problem(matrix, point):
    """What differs between a Blender instance's matrix and a JSON point, or None."""
    x, y, z, s = point["x"], point["y"], point.get("z", 0.0), point["s"]
    location = matrix.to_translation()
    if not (close(location.x, x) and close(location.y, -y) and close(location.z, z)):
        return f"location {tuple(location)} for Grove ({x}, {y}, {z})"
    columns = [matrix.col[i].to_3d() for i in range(3)]
    if not all(close(c.length, s) for c in columns):
        return f"scale {[c.length for c in columns]} for s {s}"
    if not (close(columns[2].z, s) and all(abs(v) <= TOLERANCE * s for v in (columns[0].z, columns[1].z,
                                                                                  columns[2].x, columns[2].y))):
        return f"a turn about another axis than Z: {matrix}"
    turn = math.atan2(columns[0].y, columns[0].x)
    difference = (turn + math.radians(point["rot"]) + math.pi) % (2 * math.pi) - math.pi
    if abs(difference) > TOLERANCE:
        return f"turn about Z {math.degrees(turn)} degrees for rot {point['rot']} (clockwise: -rot)"
    return None


def all_named(kind, name):
    """The data-blocks of `kind` named `name` or `name.001` and so on: more than one is a duplicate."""
    return [block.name for block in kind if block.name == name or block.name.startswith(name + ".")]


def pass_through_group():
    """A Geometry Nodes group that hands its geometry on unchanged (Blender 3's socket API)."""
    group = bpy.data.node_groups.new("Pass through", "GeometryNodeTree")
    group.inputs.new("NodeSocketGeometry", "Geometry")
    group.outputs.new("NodeSocketGeometry", "Geometry")
    group_in, group_out = group.nodes.new("NodeGroupInput"), group.nodes.new("NodeGroupOutput")
    group.links.new(group_in.outputs[0], group_out.inputs[0])
    return group


class BlenderCase(unittest.TestCase):
    def setUp(self):
        bpy.ops.wm.read_homefile(use_empty=True)  # a file of its own per test, as a fresh .blend
        self.folder = tempfile.mkdtemp(prefix="grove-blender-")

    def tearDown(self):
        shutil.rmtree(self.folder, ignore_errors=True)

    def assert_matches_json(self, root, export):
        """Per layer the count, per type the instanced object, per instance its transform."""
        instances = evaluated_instances(root)
        self.assertEqual(sorted(c["grove_layer"] for c in root.children), sorted(l["name"] for l in export["layers"]))
        for layer in export["layers"]:
            got_count = sum(len(items) for (name, _), items in instances.items() if name == layer["name"])
            self.assertEqual(got_count, layer["count"], f"layer {layer['name']}: instances")
            self.assertEqual(got_count, len(layer["points"]), f"layer {layer['name']}: points")
            for type_name, points in expected_by_type(layer).items():
                got = instances.get((layer["name"], type_name), [])
                self.assertEqual(len(got), len(points), f"{layer['name']}/{type_name}: instances")
                for k, ((matrix, instanced), point) in enumerate(zip(got, points)):
                    self.assertEqual(instanced, type_name, f"{layer['name']}/{type_name} #{k}: instanced object")
                    problem = instance_problem(matrix, point)
                    self.assertIsNone(problem, f"{layer['name']}/{type_name} #{k} (id {point['id']}): {problem}")

    def assert_no_duplicates(self, root):
        """One root of that name, each layer's collection and object once, no orphan meshes."""
        self.assertEqual(all_named(bpy.data.collections, root.name), [root.name])
        for collection in root.children:
            self.assertEqual(all_named(bpy.data.collections, collection.name), [collection.name])
            for obj in collection.objects:
                self.assertEqual(all_named(bpy.data.objects, obj.name), [obj.name])
        orphans = [mesh.name for mesh in bpy.data.meshes if mesh.users == 0]
        self.assertEqual(orphans, [], "meshes left without users")


# ---------------------------------------------------------------- imports equal the JSON

class ImportsEqualTheJson(BlenderCase):
    def test_a_json_export_imports_as_its_points(self):
        export = cli_json(ISLAND)
        path = write_json(export, os.path.join(self.folder, "island_world.json"))
        self.assertEqual(import_file(path), {"FINISHED"})
        root = root_of(path)
        self.assertEqual(root.name, "Grove island_world")
        self.assert_matches_json(root, export)
        self.assert_no_duplicates(root)

    def test_a_graph_file_imports_as_grove_cli_exports_it_with_heights(self):
        export = cli_json(ASTEROIDS)
        self.assertTrue(any("z" in p for layer in export["layers"] for p in layer["points"]), "the preset has z")
        self.assertEqual(import_file(ASTEROIDS), {"FINISHED"})
        self.assert_matches_json(root_of(ASTEROIDS), export)

    def test_a_graph_imports_with_overrides_as_grove_cli_set(self):
        export = cli_json(ISLAND, "--set", "trees.radius=16", "--set", "rocks.seed=9")
        self.assertEqual(import_file(ISLAND, "trees.radius=16; rocks.seed=9"), {"FINISHED"})
        root = root_of(ISLAND)
        self.assertEqual(root["grove_overrides"], "trees.radius=16\nrocks.seed=9")
        self.assert_matches_json(root, export)

    def test_an_empty_layer_and_two_types_of_one_name(self):
        point = {"id": 0, "x": 10.5, "y": 20.25, "r": 3, "t": 0, "rot": 90, "s": 2}
        export = {"format": "grove.points", "formatVersion": 1, "layers": [
            {"name": "bushes", "node": "bushes", "count": 3,
             "types": [{"index": 0, "name": "bush", "weight": 1}, {"index": 1, "name": "bush", "weight": 1}],
             "points": [point, dict(point, id=1, x=30, t=1, rot=-45), dict(point, id=2, y=5.5, z=-7.5, s=0.5)]},
            {"name": "nothing", "node": "nothing", "count": 0, "types": [], "points": []}]}
        path = write_json(export, os.path.join(self.folder, "handmade.json"))
        self.assertEqual(import_file(path), {"FINISHED"})
        root = root_of(path)
        self.assert_matches_json(root, export)
        bushes = next(c for c in root.children if c["grove_layer"] == "bushes")
        self.assertEqual([o["grove_type"] for o in bushes.objects], ["bush"], "one object for the name")
        self.assertEqual(len(next(c for c in root.children if c["grove_layer"] == "nothing").objects), 0)

    def test_an_object_named_as_a_type_is_the_one_instanced(self):
        bpy.ops.mesh.primitive_cube_add()
        designer_oak = bpy.context.active_object
        designer_oak.name = "oak"
        home = [c.name for c in designer_oak.users_collection]
        self.assertEqual(import_file(ISLAND), {"FINISHED"})
        instances = evaluated_instances(root_of(ISLAND))
        self.assertTrue(instances[("trees", "oak")], "oaks instanced")
        self.assertEqual(all_named(bpy.data.objects, "oak"), ["oak"], "no placeholder beside the designer's oak")
        self.assertIs(bpy.data.objects["oak"], designer_oak)
        self.assertEqual([c.name for c in designer_oak.users_collection], home, "the designer's oak stays put")
        placeholders = bpy.data.collections["Grove types"].objects
        self.assertIn("pine", placeholders, "a type without an object gets a placeholder")
        pines = [p["r"] for layer in cli_json(ISLAND)["layers"] for p in layer["points"]
                 if layer["name"] == "trees" and layer["types"][p["t"]]["name"] == "pine"]
        self.assertAlmostEqual(placeholders["pine"].dimensions.x, sorted(pines)[len(pines) // 2], places=4,
                               msg="a placeholder as wide as its points' radius")
        self.assertNotIn("oak", placeholders)


# ---------------------------------------------------------------- re-imports update in place

class ReimportsUpdateInPlace(BlenderCase):
    def datablocks(self):
        return {kind: sorted(b.name for b in getattr(bpy.data, kind)) for kind in ("collections", "objects", "meshes")}

    def test_a_changed_graph_file_reimports_into_the_same_collections(self):
        path = os.path.join(self.folder, "island_world.grove.yaml")
        shutil.copyfile(ISLAND, path)
        self.assertEqual(import_file(path), {"FINISHED"})
        root = root_of(path)
        rocks = next(c for c in root.children if c["grove_layer"] == "rocks")
        rocks_object = rocks.objects[0]
        before, before_count = self.datablocks(), len(cli_json(path)["layers"][1]["points"])

        with open(path, encoding="utf-8") as f:
            text = f.read()
        self.assertEqual(text.count("radius: 34"), 1, "the rocks' radius, to change")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace("radius: 34", "radius: 22"))
        export = cli_json(path)
        self.assertNotEqual(len(export["layers"][1]["points"]), before_count, "the change changes the rocks")

        self.assertEqual(bpy.ops.grove.reimport(), {"FINISHED"})
        self.assertIs(root_of(path), root)
        self.assertIs(next(c for c in root.children if c["grove_layer"] == "rocks"), rocks)
        self.assertIs(rocks.objects[0], rocks_object)
        self.assertEqual(self.datablocks(), before, "the same collections, objects and meshes, none added")
        self.assert_matches_json(root, export)
        self.assert_no_duplicates(root)

    def test_importing_the_same_file_again_updates_it(self):
        self.assertEqual(import_file(ISLAND), {"FINISHED"})
        before = self.datablocks()
        self.assertEqual(import_file(ISLAND, "trees.radius=20"), {"FINISHED"})
        self.assertEqual(self.datablocks(), before)
        self.assert_matches_json(root_of(ISLAND), cli_json(ISLAND, "--set", "trees.radius=20"))
        self.assert_no_duplicates(root_of(ISLAND))

    def test_reimport_uses_the_overrides_kept_on_the_collection(self):
        self.assertEqual(import_file(ISLAND), {"FINISHED"})
        root = root_of(ISLAND)
        root["grove_overrides"] = "flowers.export=false\ntrees.radius=15"
        self.assertEqual(bpy.ops.grove.reimport(), {"FINISHED"})
        export = cli_json(ISLAND, "--set", "flowers.export=false", "--set", "trees.radius=15")
        self.assertNotIn("flowers", [layer["name"] for layer in export["layers"]])
        self.assert_matches_json(root, export)  # the flowers' collection is gone with its objects
        self.assertEqual(all_named(bpy.data.objects, "island_world.flowers"), [])
        self.assert_no_duplicates(root)

    def test_what_a_user_added_survives_a_reimport_which_instances_their_new_mesh(self):
        self.assertEqual(import_file(ISLAND), {"FINISHED"})
        trees = next(c for c in root_of(ISLAND).children if c["grove_layer"] == "trees")
        oaks = next(o for o in trees.objects if o["grove_type"] == "oak")
        oaks["note"] = "kept"
        user = oaks.modifiers.new("User", "NODES")  # a pass-through group of the user's, before Grove's
        user.node_group = pass_through_group()
        with bpy.context.temp_override(object=oaks):
            bpy.ops.object.modifier_move_to_index(modifier="User", index=0)
        self.assertEqual([m.name for m in oaks.modifiers], ["User", "Grove instances"])
        bpy.data.objects.remove(bpy.data.objects["oak"])  # the placeholder, for the designer's own oak
        bpy.ops.mesh.primitive_cube_add()
        bpy.context.active_object.name = "oak"

        self.assertEqual(import_file(ISLAND, "trees.radius=14"), {"FINISHED"})
        self.assertEqual([m.name for m in oaks.modifiers], ["User", "Grove instances"])
        self.assertIs(oaks.modifiers["User"].node_group, user.node_group)
        self.assertEqual(oaks["note"], "kept")
        self.assert_matches_json(root_of(ISLAND), cli_json(ISLAND, "--set", "trees.radius=14"))

    def test_a_type_that_vanishes_loses_its_object(self):
        export = cli_json(ISLAND)
        path = write_json(export, os.path.join(self.folder, "island_world.json"))
        self.assertEqual(import_file(path), {"FINISHED"})
        chests = next(layer for layer in export["layers"] if layer["name"] == "chests")
        chests["points"] = [p for p in chests["points"] if p["t"] == 0]
        chests["count"] = len(chests["points"])
        write_json(export, path)
        self.assertEqual(bpy.ops.grove.reimport(), {"FINISHED"})
        root = root_of(path)
        self.assert_matches_json(root, export)
        self.assertEqual(all_named(bpy.data.objects, "island_world.chests.mimic"), [])
        self.assert_no_duplicates(root)


# ---------------------------------------------------------------- bad input

class BadInputIsReportedAndChangesNothing(BlenderCase):
    def assert_refused(self, path, overrides, message):
        before = sorted(c.name for c in bpy.data.collections)
        with self.assertRaises(RuntimeError) as caught:  # an operator's ERROR report, raised to a script
            import_file(path, overrides)
        self.assertIn(message, str(caught.exception))
        self.assertEqual(sorted(c.name for c in bpy.data.collections), before)

    def test_a_broken_json_file_is_refused_with_its_name(self):
        path = os.path.join(self.folder, "broken.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write('{"format": "grove.points", "layers": [')
        self.assert_refused(path, "", "broken.json")

    def test_json_that_is_not_a_grove_export_is_refused(self):
        path = write_json({"layers": []}, os.path.join(self.folder, "other.json"))
        self.assert_refused(path, "", "not a grove.points export")

    def test_a_point_without_a_number_or_a_wild_type_index_is_refused_with_its_layer(self):
        layer = {"name": "rocks", "types": [{"index": 0, "name": "rock"}],
                 "points": [{"id": 0, "x": 1, "y": 2, "r": 3, "t": 0, "rot": 0, "s": 1},
                            {"id": 1, "x": None, "y": 2, "r": 3, "t": 0, "rot": 0, "s": 1}]}
        path = write_json({"format": "grove.points", "layers": [layer]}, os.path.join(self.folder, "nan.json"))
        self.assert_refused(path, "", "layer 0: malformed (ValueError: point 1: x is")
        layer["points"].pop()
        layer["types"] = [{"index": 2000000000, "name": "rock"}]  # refused, not a list of 2e9 names
        path = write_json({"format": "grove.points", "layers": [layer]}, os.path.join(self.folder, "index.json"))
        self.assert_refused(path, "", "type indices [2000000000] are not 0 to 0")

    def test_a_bad_override_is_refused_with_grove_s_located_message(self):
        self.assert_refused(ISLAND, "trees.no_such_param=1", "no_such_param")


if __name__ == "__main__":
    result = unittest.main(argv=[sys.argv[0]], exit=False, verbosity=2).result
    sys.exit(0 if result.wasSuccessful() else 1)
