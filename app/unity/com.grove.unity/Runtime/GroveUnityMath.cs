// UNITY ONLY (uses UnityEngine; not compiled by the Mono test): GroveAxes' results as Unity's types.
using UnityEngine;

namespace Grove
{
    public static class GroveUnityMath
    {
        /// <summary>GroveMatrix has Matrix4x4's fields and meaning: copied field by field.</summary>
        public static Matrix4x4 ToMatrix4x4(GroveMatrix m)
        {
            var u = new Matrix4x4();
            u.m00 = m.m00; u.m10 = m.m10; u.m20 = m.m20; u.m30 = m.m30;
            u.m01 = m.m01; u.m11 = m.m11; u.m21 = m.m21; u.m31 = m.m31;
            u.m02 = m.m02; u.m12 = m.m12; u.m22 = m.m22; u.m32 = m.m32;
            u.m03 = m.m03; u.m13 = m.m13; u.m23 = m.m23; u.m33 = m.m33;
            return u;
        }

        /// <summary>A point's position in Unity's frame: Grove (x, y, z) is Unity (x, z, -y).</summary>
        public static Vector3 Position(GrovePoint point)
        {
            float x, y, z;
            GroveAxes.ToUnity(point.x, point.y, point.z, out x, out y, out z);
            return new Vector3(x, y, z);
        }

        /// <summary>The instance transform of a point (position, yaw, uniform scale).</summary>
        public static Matrix4x4 Instance(GrovePoint point)
        {
            return ToMatrix4x4(GroveAxes.Instance(point));
        }
    }
}
