"""Grove for Blender: File > Import > Grove reads a Grove graph (.grove.yaml, evaluated through
Grove's Python package and libgrove) or a grove.points JSON export, and makes a collection per layer
holding an instancing object per type (see scene.py); File > Import > Grove: Re-import updates every
Grove import of the scene in place from its file. Grove's axes map to Blender's as mapping.py says."""
import os
import time

import bpy
from bpy.props import StringProperty
from bpy_extras.io_utils import ImportHelper

from . import data, scene

bl_info = {
    "name": "Grove",
    "author": "Grove",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "File > Import > Grove (.grove.yaml / .json)",
    "description": "Imports Grove's placed points as collections of instances, and re-imports them in place",
    "category": "Import-Export",
}


class GrovePreferences(bpy.types.AddonPreferences):
    """Where Grove's Python package and libgrove are, for graphs (.grove.yaml); JSON needs neither."""
    bl_idname = __name__

    package_dir: StringProperty(
        name="Grove Python package folder", subtype="DIR_PATH",
        description="app/python of a Grove checkout (the folder holding grove/); empty: importable already, "
                    "or the checkout this add-on sits in")
    library: StringProperty(
        name="libgrove", subtype="FILE_PATH",
        description="libgrove.so; empty: $GROVE_LIBRARY, beside the package, or the system's library search")

    def draw(self, context):
        self.layout.prop(self, "package_dir")
        self.layout.prop(self, "library")


def _preferences(context):
    addon = context.preferences.addons.get(__name__)
    return (addon.preferences.package_dir, addon.preferences.library) if addon else ("", "")


def import_file(context, path, overrides):
    """Reads `path` and builds or updates its collections; returns (root collection, points, seconds)."""
    package_dir, library = _preferences(context)
    started = time.perf_counter()
    source = os.path.abspath(bpy.path.abspath(path))
    graph = data.read(source, overrides, library=bpy.path.abspath(library) if library else None,
                      package_dir=bpy.path.abspath(package_dir) if package_dir else None)
    root = scene.build(context.scene, graph, source, overrides)
    points = sum(len(layer) for layer in graph.layers)
    return root, points, time.perf_counter() - started


class GROVE_OT_import(bpy.types.Operator, ImportHelper):
    """Import a Grove graph or JSON export as a collection of instances per layer"""
    bl_idname = "grove.import_points"
    bl_label = "Import Grove"
    bl_options = {"REGISTER", "UNDO"}

    filename_ext = ".yaml"
    filter_glob: StringProperty(default="*.grove.yaml;*.yaml;*.yml;*.json", options={"HIDDEN"})
    overrides: StringProperty(
        name="Overrides",
        description="A graph's param overrides as grove-cli's --set, separated by ';': trees.radius=6; rocks.seed=2")

    def execute(self, context):
        try:
            root, points, seconds = import_file(context, self.filepath, data.parse_overrides(self.overrides))
        except data.GroveDataError as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        self.report({"INFO"}, f"{root.name}: {points} points in {len(root.children)} layers ({seconds:.2f} s)")
        return {"FINISHED"}


class GROVE_OT_reimport(bpy.types.Operator):
    """Read every Grove import of the scene again from its file (with its grove_overrides) and update it in place"""
    bl_idname = "grove.reimport"
    bl_label = "Grove: Re-import"
    bl_options = {"REGISTER", "UNDO"}

    def execute(self, context):
        roots = scene.grove_roots(context.scene)
        if not roots:
            self.report({"WARNING"}, "no Grove import in this scene")
            return {"CANCELLED"}
        for root in roots:
            source = root[scene.SOURCE_KEY]
            overrides = data.parse_overrides(root.get(scene.OVERRIDES_KEY, ""))
            try:
                import_file(context, source, overrides)
            except data.GroveDataError as e:
                self.report({"ERROR"}, str(e))
                return {"CANCELLED"}
        self.report({"INFO"}, f"re-imported {len(roots)} Grove import(s)")
        return {"FINISHED"}


def _menu_import(self, context):
    self.layout.operator(GROVE_OT_import.bl_idname, text="Grove (.grove.yaml / .json)")
    self.layout.operator(GROVE_OT_reimport.bl_idname, text="Grove: Re-import")


_classes = (GrovePreferences, GROVE_OT_import, GROVE_OT_reimport)


def register():
    for cls in _classes:
        bpy.utils.register_class(cls)
    bpy.types.TOPBAR_MT_file_import.append(_menu_import)


def unregister():
    bpy.types.TOPBAR_MT_file_import.remove(_menu_import)
    for cls in reversed(_classes):
        bpy.utils.unregister_class(cls)
