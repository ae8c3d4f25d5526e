// Grove's map in Unity's frame (GroveAxes): positions, the yaw's sign, instance matrices; and the
// JSON reader's numbers, correctly rounded on the hard cases.
using System;
using Grove;

static class GroveAxesTests
{
    static bool Near(double a, double b)
    {
        return Math.Abs(a - b) < 1e-4;
    }

    static void Positions()
    {
        float ux, uy, uz;
        GroveAxes.ToUnity(10, 20, 3, out ux, out uy, out uz);
        Check.That(ux == 10 && uy == 3 && uz == -20, "Grove (10, 20, height 3) is Unity (10, 3, -20): " + ux + ", " + uy + ", " + uz);
        double x, y;
        GroveAxes.ToGrove(ux, uy, uz, out x, out y);
        Check.That(x == 10 && y == 20, "and back on the map: " + x + ", " + y);
        // north of the map (y smaller) is Unity's forward (+Z); east stays +X: the map is not mirrored
        GroveAxes.ToUnity(0, -1, 0, out ux, out uy, out uz);
        Check.That(uz == 1, "up the map is Unity's +Z");
    }

    // a direction on Grove's map turned clockwise as seen from above (y down): right goes to down
    static void Clockwise(double dx, double dy, double degrees, out double rx, out double ry)
    {
        double a = degrees * Math.PI / 180;
        rx = dx * Math.Cos(a) - dy * Math.Sin(a);
        ry = dx * Math.Sin(a) + dy * Math.Cos(a);
    }

    static void Rotations()
    {
        double rx, ry;
        Clockwise(1, 0, 90, out rx, out ry);
        Check.That(Near(rx, 0) && Near(ry, 1), "on Grove's map a quarter turn clockwise takes right to down");
        foreach (double degrees in new[] { 0.0, 30.0, 90.0, 135.0, 200.0, 359.0 })
            foreach (var d in new[] { new[] { 1.0, 0.0 }, new[] { 0.0, -1.0 }, new[] { 0.6, 0.8 } })
            {
                var p = new GrovePoint { x = 100, y = 50, z = 2, rotation = degrees, scale = 1.5 };
                GroveMatrix m = GroveAxes.Instance(p);
                // the instance's local direction d (mapped to Unity) lands where the map turns it clockwise
                float lx, ly, lz, wx, wy, wz;
                GroveAxes.ToUnity(d[0], d[1], 0, out lx, out ly, out lz);
                m.MultiplyPoint(lx, ly, lz, out wx, out wy, out wz);
                Clockwise(d[0], d[1], degrees, out rx, out ry);
                float ex, ey, ez;
                GroveAxes.ToUnity(p.x + 1.5 * rx, p.y + 1.5 * ry, p.z, out ex, out ey, out ez);
                Check.That(Near(wx, ex) && Near(wy, ey) && Near(wz, ez),
                           "rotation " + degrees + ", direction (" + d[0] + ", " + d[1] + "): Unity (" + wx + ", " + wy + ", " + wz +
                           "), the map's turn (" + ex + ", " + ey + ", " + ez + ")");
            }
        GroveMatrix quarter = GroveAxes.Instance(new GrovePoint { rotation = 90, scale = 1 });
        float fx, fy, fz;
        quarter.MultiplyPoint(0, 0, 1, out fx, out fy, out fz);
        Check.That(Near(fx, 1) && Near(fz, 0), "rotation 90 turns Unity's forward to +X, as Quaternion.Euler(0, 90, 0) does");
        Check.That(GroveAxes.Yaw(90) == 90, "the yaw is the rotation, sign and all");
        GroveMatrix up = GroveAxes.Instance(new GrovePoint { x = 1, y = 2, z = 3, rotation = 45, scale = 2 });
        up.MultiplyPoint(0, 1, 0, out fx, out fy, out fz);
        Check.That(Near(fx, 1) && Near(fy, 5) && Near(fz, -2) && up.m33 == 1 && up.m30 == 0,
                   "Unity's up stays up, scaled: (" + fx + ", " + fy + ", " + fz + ")");
    }

    static void Decimals()
    {
        var cases = new[]
        {
            new { text = "0.1", bits = 0x3FB999999999999AL },
            new { text = "-0.0", bits = unchecked((long)0x8000000000000000UL) },
            new { text = "0", bits = 0L },
            new { text = "9007199254740993", bits = 0x4340000000000000L },       // 2^53 + 1: a tie, to even (2^53)
            new { text = "9007199254740995", bits = 0x4340000000000002L },       // 2^53 + 3: a tie, to even (2^53 + 4)
            new { text = "2.2250738585072014e-308", bits = 0x0010000000000000L }, // the least normal double
            new { text = "1.7976931348623157e308", bits = 0x7FEFFFFFFFFFFFFFL },  // the greatest
            new { text = "0.30000000000000004", bits = 0x3FD3333333333334L },
            new { text = "124.03008023630544", bits = BitConverter.DoubleToInt64Bits(124.03008023630544) },
            new { text = "1E2", bits = BitConverter.DoubleToInt64Bits(100.0) },
        };
        foreach (var c in cases)
        {
            double got = new GroveJsonNumber(c.text).ToDouble();
            Check.That(BitConverter.DoubleToInt64Bits(got) == c.bits,
                       c.text + " reads as " + BitConverter.DoubleToInt64Bits(got).ToString("X16") + ", not " + c.bits.ToString("X16"));
        }
        // just above the halfway point between two doubles: rounds up however many digits it takes to tell
        double above = new GroveJsonNumber("9007199254740993.0000000000000000000001").ToDouble();
        Check.That(BitConverter.DoubleToInt64Bits(above) == 0x4340000000000001L, "a hair above a tie rounds up");
    }

    public static void Run()
    {
        Positions();
        Rotations();
        Decimals();
        Console.WriteLine("axes: Grove (x, y, z) is Unity (x, z, -y), rotation is yaw; JSON numbers correctly rounded");
    }
}
