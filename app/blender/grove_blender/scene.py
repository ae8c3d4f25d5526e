"""Grove's layers as Blender collections of instances, built or updated in place.

One import makes (names are for people; the add-on finds things by their custom properties):

    Grove <stem>                  collection, grove_source = the file, grove_overrides = its --set lines
      <stem>.<layer>              collection per layer, grove_layer = the layer's name
        <stem>.<layer>.<type>     object per type with points: a mesh of one vertex per point (Blender
                                  location), the attributes grove_rotation (Euler, radians) and
                                  grove_scale, and a Geometry Nodes modifier instancing the type's
                                  source object on every vertex with them
    Grove types                   collection of the placeholder source objects the add-on made

A type's source object is the scene file's object named exactly as the type ("oak"), so a designer
who names their tree mesh "oak" gets it instanced; when there is none, the add-on makes a small
placeholder pyramid of that name, as wide as the points' radius (into Grove types, hidden), for
them to replace or edit.
Importing the same file again, or Re-import, updates these in place: same collections and objects,
new point data, vanished layers and types removed, nothing duplicated."""
import bpy
import numpy as np

from . import mapping

SOURCE_KEY, OVERRIDES_KEY, LAYER_KEY, TYPE_KEY = "grove_source", "grove_overrides", "grove_layer", "grove_type"
NODE_GROUP_NAME = "Grove instance on points"
TYPES_COLLECTION_NAME = "Grove types"
ROTATION_ATTRIBUTE, SCALE_ATTRIBUTE, ID_ATTRIBUTE = "grove_rotation", "grove_scale", "grove_id"
_INT32_MAX = 2**31 - 1


# ---------------------------------------------------------------- finding what an earlier import made

def grove_roots(scene):
    """Every collection of the scene that an import made (it carries grove_source), outermost first."""
    return [c for c in scene.collection.children_recursive if SOURCE_KEY in c]


def find_root(scene, source):
    """The import of `source` (an absolute path) in the scene, or None."""
    return next((c for c in grove_roots(scene) if c[SOURCE_KEY] == source), None)


def _child_with(collection, key, value):
    return next((c for c in collection.children if c.get(key) == value), None)


# ---------------------------------------------------------------- building

def build(scene, graph, source, overrides=()):
    """Creates or updates the import of `source` (a data.GraphPoints read from it): returns the root
    collection. Objects of layers and types no longer in the graph are removed."""
    root = find_root(scene, source)
    if root is None:
        root = bpy.data.collections.new(f"Grove {graph.name}")
        root[SOURCE_KEY] = source
        scene.collection.children.link(root)
    root[OVERRIDES_KEY] = "\n".join(overrides)
    node_group = _node_group()
    kept = set()
    for layer in graph.layers:
        kept.add(_build_layer(scene, root, graph.name, layer, node_group))
    for stale in [c for c in root.children if c.get(LAYER_KEY) not in kept]:
        remove_collection(stale)
    return root


def _build_layer(scene, root, stem, layer, node_group):
    """The layer's collection with one instancing object per type that has points; returns its name."""
    collection = _child_with(root, LAYER_KEY, layer.name)
    if collection is None:
        collection = bpy.data.collections.new(f"{stem}.{layer.name}")
        collection[LAYER_KEY] = layer.name
        root.children.link(collection)
    types = layer.arrays["type"]
    indices_by_name = {}  # two types of one name share its object
    for index in np.unique(types).tolist():
        indices_by_name.setdefault(layer.type_name(index), []).append(index)
    present = {name: np.flatnonzero(np.isin(types, indices)) for name, indices in indices_by_name.items()}
    for obj in [o for o in collection.objects if o.get(TYPE_KEY) not in present]:
        _remove_object(obj)
    for type_name, which in present.items():
        selected = {name: array[which] for name, array in layer.arrays.items()}
        _update_type_object(scene, collection, f"{stem}.{layer.name}.{type_name}", type_name, selected, node_group)
    return layer.name


def _update_type_object(scene, collection, name, type_name, arrays, node_group):
    """The object instancing `type_name` on these points: made once, its mesh replaced on each import."""
    obj = next((o for o in collection.objects if o.get(TYPE_KEY) == type_name), None)
    mesh = _points_mesh(name, arrays)
    if obj is None:
        obj = bpy.data.objects.new(name, mesh)
        obj[TYPE_KEY] = type_name
        collection.objects.link(obj)
    else:
        old, obj.data = obj.data, mesh
        if old.users == 0:
            bpy.data.meshes.remove(old)
        mesh.name = name  # the old mesh's name, free again (the new one was made as name.001)
    modifier = _instancing_modifier(obj, node_group)
    modifier[_object_input(node_group)] = source_object(scene, type_name, arrays)
    obj.update_tag()


def _instancing_modifier(obj, node_group):
    """The object's modifier running Grove's node group (made when missing); other modifiers are the user's."""
    for modifier in obj.modifiers:
        if modifier.type == "NODES" and modifier.node_group == node_group:
            return modifier
    modifier = obj.modifiers.new("Grove instances", "NODES")
    modifier.node_group = node_group
    return modifier


def _points_mesh(name, arrays):
    """A mesh of one vertex per point at its Blender location, with its rotation and scale (and its
    id, when it fits an int) as point attributes. float32, as Blender stores them."""
    mesh = bpy.data.meshes.new(name)
    count = len(arrays["x"])
    mesh.vertices.add(count)
    mesh.vertices.foreach_set("co", mapping.locations(arrays).astype(np.float32).ravel())
    _attribute(mesh, ROTATION_ATTRIBUTE, "FLOAT_VECTOR", "vector", mapping.rotations(arrays).astype(np.float32))
    _attribute(mesh, SCALE_ATTRIBUTE, "FLOAT_VECTOR", "vector", mapping.scales(arrays).astype(np.float32))
    ids = arrays["id"]
    if count and int(ids.max()) <= _INT32_MAX:
        _attribute(mesh, ID_ATTRIBUTE, "INT", "value", ids.astype(np.int32))
    mesh.update()
    return mesh


def _attribute(mesh, name, data_type, field, values):
    attribute = mesh.attributes.new(name, data_type, "POINT")
    attribute.data.foreach_set(field, values.ravel())


# ---------------------------------------------------------------- source objects

def source_object(scene, type_name, arrays):
    """The file's object named `type_name`, or a new placeholder of that name in Grove types, as wide
    as the points' median radius (Grove's world units), so it shows at the map's scale."""
    obj = bpy.data.objects.get(type_name)
    if obj is not None:
        return obj
    size = float(np.median(arrays["r"])) if len(arrays["r"]) else 1.0
    obj = bpy.data.objects.new(type_name, _placeholder_mesh(type_name, max(size, 1e-3)))
    _types_collection(scene).objects.link(obj)
    return obj


def _placeholder_mesh(name, size):
    """A pyramid of base `size` by `size` and height 2 `size`, leaning towards +X so that a turn shows."""
    s = size
    vertices = [(-0.5 * s, -0.5 * s, 0), (0.5 * s, -0.5 * s, 0), (0.5 * s, 0.5 * s, 0), (-0.5 * s, 0.5 * s, 0),
                (0.35 * s, 0, 2 * s)]
    faces = [(3, 2, 1, 0), (0, 1, 4), (1, 2, 4), (2, 3, 4), (3, 0, 4)]
    mesh = bpy.data.meshes.new(f"{name} (Grove placeholder)")
    mesh.from_pydata(vertices, [], faces)
    mesh.update()
    return mesh


def _types_collection(scene):
    """Grove types: the placeholders, kept out of the viewport and renders (instances still show them)."""
    collection = bpy.data.collections.get(TYPES_COLLECTION_NAME)
    if collection is None:
        collection = bpy.data.collections.new(TYPES_COLLECTION_NAME)
        collection.hide_viewport = collection.hide_render = True
    scene_collection = scene.collection
    if collection.name not in scene_collection.children:
        scene_collection.children.link(collection)
    return collection


# ---------------------------------------------------------------- the Geometry Nodes group

def _node_group():
    """Instance on Points with the object input as the instance, grove_rotation and grove_scale."""
    group = bpy.data.node_groups.get(NODE_GROUP_NAME)
    if group is not None:
        return group
    group = bpy.data.node_groups.new(NODE_GROUP_NAME, "GeometryNodeTree")
    _new_socket(group, "Geometry", "INPUT", "NodeSocketGeometry")
    _new_socket(group, "Object", "INPUT", "NodeSocketObject")
    _new_socket(group, "Geometry", "OUTPUT", "NodeSocketGeometry")
    nodes, links = group.nodes, group.links
    group_in, group_out = nodes.new("NodeGroupInput"), nodes.new("NodeGroupOutput")
    info = nodes.new("GeometryNodeObjectInfo")
    info.inputs["As Instance"].default_value = True
    instance = nodes.new("GeometryNodeInstanceOnPoints")
    links.new(group_in.outputs["Geometry"], instance.inputs["Points"])
    links.new(group_in.outputs["Object"], info.inputs["Object"])
    links.new(info.outputs["Geometry"], instance.inputs["Instance"])
    links.new(_named_attribute(nodes, ROTATION_ATTRIBUTE), instance.inputs["Rotation"])
    links.new(_named_attribute(nodes, SCALE_ATTRIBUTE), instance.inputs["Scale"])
    links.new(instance.outputs["Instances"], group_out.inputs["Geometry"])
    for i, node in enumerate((group_in, info, instance, group_out)):
        node.location = (220 * i, 0)
    return group


def _new_socket(group, name, in_out, socket_type):
    """A group socket, through Blender 4's interface API or Blender 3's inputs/outputs."""
    if hasattr(group, "interface"):
        return group.interface.new_socket(name, in_out=in_out, socket_type=socket_type)
    return (group.inputs if in_out == "INPUT" else group.outputs).new(socket_type, name)


def _named_attribute(nodes, name):
    """The output socket of a Named Attribute node reading the vector attribute `name`."""
    node = nodes.new("GeometryNodeInputNamedAttribute")
    node.data_type = "FLOAT_VECTOR"
    node.inputs["Name"].default_value = name
    return next(output for output in node.outputs if output.enabled)


def _object_input(group):
    """The modifier key of the group's Object input ("Input_2" in Blender 3, "Socket_1" in Blender 4)."""
    sockets = group.interface.items_tree if hasattr(group, "interface") else group.inputs
    return sockets["Object"].identifier


# ---------------------------------------------------------------- removing

def remove_collection(collection):
    """A layer's collection and the objects and meshes in it (source objects are left alone)."""
    for obj in list(collection.objects):
        _remove_object(obj)
    bpy.data.collections.remove(collection)


def _remove_object(obj):
    mesh = obj.data
    bpy.data.objects.remove(obj)
    if mesh is not None and mesh.users == 0:
        bpy.data.meshes.remove(mesh)
