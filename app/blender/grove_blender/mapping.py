"""Grove's axes to Blender's, in one place.

Grove's map has its origin at the top left, x right, y down (as an image), heights as z, and a point's
rotation in degrees clockwise as seen on the map. Blender is right-handed with Z up; its top view
(numpad 7) looks down -Z with X right and Y up the screen. So that the top view shows the map as
Grove's editor draws it:

    Blender X = Grove x
    Blender Y = -Grove y          (the map's top edge at Y = 0, the map below it in -Y)
    Blender Z = Grove z           (the layer's height; 0 for a layer without heights)
    rotation  = -rot degrees about +Z  (clockwise seen from above, as on the map), in radians
    scale     = (s, s, s)         (Grove's scale is uniform)

This is also what Blender's glTF importer gives for Grove's .glb export (glTF's +Y up becomes
Blender's +Z, glTF's +Z becomes Blender's -Y), so the two imports line up.
"""
import numpy as np


def locations(arrays):
    """An (n, 3) float64 array of Blender locations for the points' x, y, z."""
    return np.column_stack((arrays["x"], -arrays["y"], arrays["z"]))


def rotations(arrays):
    """An (n, 3) float64 array of Blender XYZ Euler angles (radians): only the turn about Z."""
    turn = -np.radians(arrays["rotation"])
    zeros = np.zeros_like(turn)
    return np.column_stack((zeros, zeros, turn))


def scales(arrays):
    """An (n, 3) float64 array: each point's uniform scale on the three axes."""
    s = arrays["scale"]
    return np.column_stack((s, s, s))
