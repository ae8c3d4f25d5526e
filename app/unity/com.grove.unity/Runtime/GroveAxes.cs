// Grove's map in Unity's world. Grove: x right, y down the map (north is -y), z the height,
// rotation in degrees clockwise as the map is seen from above. Unity: left-handed, Y up; in its
// top view X is right and Z is up the screen. So
//     Grove (x, y, z)  ->  Unity (x, z, -y)        Unity (X, Y, Z)  ->  Grove (X, -Z), height Y
// The matrix [[1,0,0],[0,0,1],[0,-1,0]] has determinant +1: a left-handed frame goes to a left-handed
// frame, nothing is mirrored (a map read top-down in Grove reads the same from above in Unity).
// A clockwise turn seen from above is Unity's positive yaw (Quaternion.Euler(0, +angle, 0) turns +Z
// towards +X), so a point's rotation is its yaw as it is, sign and all. Unity-free: the Mono test
// checks the mapping and the matrices.
using System;

namespace Grove
{
    /// <summary>A 4x4 float matrix with the fields, layout (column-major) and meaning of UnityEngine.Matrix4x4.</summary>
    [Serializable]
    public struct GroveMatrix
    {
        public float m00, m10, m20, m30;
        public float m01, m11, m21, m31;
        public float m02, m12, m22, m32;
        public float m03, m13, m23, m33;

        /// <summary>The matrix times the point (x, y, z, 1), as Matrix4x4.MultiplyPoint3x4.</summary>
        public void MultiplyPoint(float x, float y, float z, out float ox, out float oy, out float oz)
        {
            ox = m00 * x + m01 * y + m02 * z + m03;
            oy = m10 * x + m11 * y + m12 * z + m13;
            oz = m20 * x + m21 * y + m22 * z + m23;
        }
    }

    public static class GroveAxes
    {
        /// <summary>A Grove position (map x, map y, height z) as Unity's (X, Y, Z).</summary>
        public static void ToUnity(double x, double y, double z, out float unityX, out float unityY, out float unityZ)
        {
            unityX = (float)x;
            unityY = (float)z;
            unityZ = (float)-y;
        }

        /// <summary>Where a Unity position lies on Grove's map (its height, Unity's Y, is not part of the map).</summary>
        public static void ToGrove(float unityX, float unityY, float unityZ, out double x, out double y)
        {
            x = unityX;
            y = -(double)unityZ;
        }

        /// <summary>A point's rotation (degrees clockwise on the map) as the yaw about Unity's Y axis, in degrees.</summary>
        public static float Yaw(double rotation)
        {
            return (float)rotation;
        }

        /// <summary>The instance's transform: at the point (height z), turned by its rotation, scaled by its scale,
        /// as Matrix4x4.TRS(position, Quaternion.Euler(0, yaw, 0), Vector3.one * scale).</summary>
        public static GroveMatrix Instance(GrovePoint point)
        {
            double radians = point.rotation * (Math.PI / 180.0);
            float c = (float)Math.Cos(radians), s = (float)Math.Sin(radians), k = (float)point.scale;
            var m = new GroveMatrix();
            ToUnity(point.x, point.y, point.z, out m.m03, out m.m13, out m.m23);
            m.m00 = c * k;
            m.m02 = s * k;
            m.m11 = k;
            m.m20 = -s * k;
            m.m22 = c * k;
            m.m33 = 1;
            return m;
        }
    }
}
