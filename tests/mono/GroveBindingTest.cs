// The Unity package's C# binding (app/unity/com.grove.unity/Runtime, its Unity-free files) on the
// built libgrove under Mono: every shipped preset's points equal grove-cli's JSON export bit for
// bit, thousands of handles open and close (and are finalized) with memory flat, bad input gives
// located exceptions and never a crash, a streaming session walks an endless world, and Grove's
// axes land in Unity's frame. Exit code 1 on any failure.
//   mono GroveBindingTest.exe [SECTION...]    (sections: layouts axes errors presets handles streaming; default all)
// Environment: GROVE_SOURCE (the checkout), GROVE_CLI (grove-cli); libgrove through the dllmap in
// GroveBindingTest.exe.config (CMake writes it) or LD_LIBRARY_PATH.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Text;
using Grove;

static class Check
{
    public static int Failures;

    public static void That(bool ok, string what)
    {
        if (ok)
            return;
        ++Failures;
        Console.Error.WriteLine("FAIL: " + what);
    }

    /// <summary>The action throws exactly a T (or a subclass); returns it for more checks (null when it did not).</summary>
    public static T Throws<T>(Action action, string what) where T : Exception
    {
        try
        {
            action();
        }
        catch (T e)
        {
            return e;
        }
        catch (Exception e)
        {
            That(false, what + ": threw " + e.GetType().Name + " (" + e.Message + "), not " + typeof(T).Name);
            return null;
        }
        That(false, what + ": did not throw " + typeof(T).Name);
        return null;
    }

    public static string Source
    {
        get { return Environment.GetEnvironmentVariable("GROVE_SOURCE") ?? "."; }
    }

    /// <summary>grove-cli's standard output for ARGS (exit 0 required).</summary>
    public static string Cli(params string[] args)
    {
        string cli = Environment.GetEnvironmentVariable("GROVE_CLI");
        if (string.IsNullOrEmpty(cli))
            throw new InvalidOperationException("GROVE_CLI is not set: the path of grove-cli");
        var start = new ProcessStartInfo(cli)
        {
            UseShellExecute = false,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            StandardOutputEncoding = Encoding.UTF8,
        };
        var quoted = new List<string>();
        foreach (string a in args)
            quoted.Add("\"" + a + "\"");
        start.Arguments = string.Join(" ", quoted.ToArray());
        using (Process run = Process.Start(start))
        {
            var errors = run.StandardError.ReadToEndAsync();
            string output = run.StandardOutput.ReadToEnd();
            run.WaitForExit();
            if (run.ExitCode != 0)
                throw new InvalidOperationException("grove-cli " + start.Arguments + " failed: " + errors.Result);
            return output;
        }
    }

    public static bool Same(double a, double b)
    {
        return BitConverter.DoubleToInt64Bits(a) == BitConverter.DoubleToInt64Bits(b);
    }

    /// <summary>The first point that differs in any field, bit for bit (-0.0 is not 0.0); -1 when all are the same.</summary>
    public static int FirstDifference(GrovePoint[] got, GrovePoint[] want)
    {
        for (int k = 0; k < Math.Min(got.Length, want.Length); ++k)
        {
            GrovePoint a = got[k], b = want[k];
            if (!Same(a.x, b.x) || !Same(a.y, b.y) || !Same(a.z, b.z) || !Same(a.r, b.r) || !Same(a.rotation, b.rotation)
                || !Same(a.scale, b.scale) || a.id != b.id || a.type != b.type || a.reserved != 0)
                return k;
        }
        return got.Length == want.Length ? -1 : Math.Min(got.Length, want.Length);
    }

    public static string Show(GrovePoint p)
    {
        return string.Format(System.Globalization.CultureInfo.InvariantCulture, "id {0} ({1:R}, {2:R}, z {3:R}) r {4:R} t {5} rot {6:R} s {7:R}",
                             p.id, p.x, p.y, p.z, p.r, p.type, p.rotation, p.scale);
    }
}

static class GroveBindingTest
{
    // every shipped preset through the binding against grove-cli's JSON (an endless one: a region)
    static void Presets()
    {
        string[] files = Directory.GetFiles(Path.Combine(Check.Source, "presets"), "*.grove.yaml");
        Array.Sort(files, StringComparer.Ordinal);
        Check.That(files.Length >= 10, "the shipped presets are found: " + files.Length);
        long compared = 0;
        foreach (string file in files)
            using (GroveGraph graph = GroveGraph.OpenFile(file))
            {
                string name = Path.GetFileName(file);
                bool endless = graph.World.endless != 0;
                bool tileable = name == "meadow_tile.grove.yaml";  // world.wrap: true, the one preset that repeats
                Check.That(graph.WrapX == tileable && graph.WrapY == tileable,
                           name + ": wraps along x " + graph.WrapX + ", along y " + graph.WrapY);
                GroveExport export = GroveExport.Read(endless
                    ? Check.Cli("eval", file, "--format", "json", "--quiet", "--region", "-256,-256,512,512")
                    : Check.Cli("eval", file, "--format", "json", "--quiet"));
                Check.That(export.Layers.Count == graph.Layers.Count,
                           name + ": " + graph.Layers.Count + " layers, grove-cli exports " + export.Layers.Count);
                for (int k = 0; k < Math.Min(export.Layers.Count, graph.Layers.Count); ++k)
                {
                    GroveLayer layer = graph.Layers[k];
                    GroveExportLayer want = export.Layers[k];
                    string what = name + " layer '" + layer.Name + "'";
                    Check.That(layer.Name == want.Name, what + ": grove-cli names it '" + want.Name + "'");
                    Check.That(string.Join("|", new List<string>(layer.Types).ToArray()) == string.Join("|", want.Types),
                               what + ": types " + string.Join(", ", new List<string>(layer.Types).ToArray()) + " vs " + string.Join(", ", want.Types));
                    Check.That(layer.HasZ == want.HasZ || want.Points.Length == 0, what + ": has heights " + layer.HasZ);
                    GrovePoint[] got = endless ? layer.Region(-256, -256, 512, 512) : layer.Points();
                    Check.That(got.Length == want.Points.Length, what + ": " + got.Length + " points, grove-cli " + want.Points.Length);
                    int d = Check.FirstDifference(got, want.Points);
                    if (d >= 0 && d < Math.Min(got.Length, want.Points.Length))
                        Check.That(false, what + ": point " + d + " differs: binding " + Check.Show(got[d]) + ", grove-cli " + Check.Show(want.Points[d]));
                    compared += got.Length;
                }
            }
        Check.That(compared > 10000, "points compared: " + compared);
        Console.WriteLine("presets: " + files.Length + " graphs, " + compared + " points equal grove-cli's export bit for bit");
    }

    static void Layout(Type type, int size, params object[] offsets)
    {
        int got = System.Runtime.InteropServices.Marshal.SizeOf(type);
        Check.That(got == size, type.Name + " is " + got + " bytes, grove.h's struct " + size);
        for (int k = 0; k < offsets.Length; k += 2)
        {
            long at = System.Runtime.InteropServices.Marshal.OffsetOf(type, (string)offsets[k]).ToInt64();
            Check.That(at == (int)offsets[k + 1], type.Name + "." + offsets[k] + " at " + at + ", grove.h's at " + offsets[k + 1]);
        }
    }

    // the structs as grove.h lays them out on a 64-bit platform (C's alignment: a pointer or a long long after
    // an odd number of ints starts 4 bytes later)
    static void Layouts()
    {
        Check.That(IntPtr.Size == 8, "a 64-bit process");
        Layout(typeof(GrovePoint), 64, "x", 0, "rotation", 32, "scale", 40, "id", 48, "type", 56, "reserved", 60);
        Layout(typeof(GroveWorldInfo), 32, "chunk", 16, "endless", 24, "seed", 28);
        Layout(typeof(GroveOptionsNative), 32, "baseDir", 8, "sets", 16, "setCount", 24);
        Layout(typeof(GroveActivity), 16, "piecesDone", 8);
        Layout(typeof(GroveSessionOptionsNative), 24, "memoryCap", 8, "unloadMargin", 16);
        Layout(typeof(GroveSource), 24, "radius", 16);
        Layout(typeof(GroveSessionChunkNative), 32, "j", 8, "points", 16, "count", 24);
        Layout(typeof(GroveChunkRefNative), 12, "j", 8);
        Layout(typeof(GroveUpdateResultNative), 32, "readyCount", 8, "unload", 16, "unloadCount", 24, "pending", 28);
        Layout(typeof(GroveSessionStats), 72, "delivered", 16, "memoryCap", 64);
        Console.WriteLine("layouts: the binding's structs have grove.h's sizes and offsets");
    }

    // A layer's attributes through the binding: names in chain order, by the source's node id too, and values
    // a constant field gives every point (so the check needs no Grove code), by region as well.
    static void Attributes()
    {
        const string yaml = "grove: 1\nworld: {width: 300, height: 200, seed: 7}\nnodes:\n"
                            + "  quarter: {type: constant, params: {value: 0.25}}\n  eighth: {type: constant, params: {value: -0.125}}\n"
                            + "  rocks: {type: place_layer, params: {radius: 20, name: stones}}\n"
                            + "  wet: {type: attribute, inputs: {points: rocks, field: quarter}, params: {name: moisture}}\n"
                            + "  cold: {type: attribute, inputs: {points: wet, field: eighth}, params: {name: warmth}}\n";
        using (GroveGraph graph = GroveGraph.OpenText(yaml, "attributes"))
        {
            GroveLayer stones = graph.Layer("rocks");
            Check.That(stones.Name == "stones", "the refined layer keeps its name: " + stones.Name);
            Check.That(string.Join(",", new List<string>(stones.Attributes).ToArray()) == "moisture,warmth",
                       "attributes in chain order: " + string.Join(",", new List<string>(stones.Attributes).ToArray()));
            GrovePoint[] points = stones.Points();
            double[] moisture = stones.Attribute("moisture"), warmth = stones.Attribute("warmth");
            Check.That(points.Length > 20 && moisture.Length == points.Length && warmth.Length == points.Length,
                       "a value a point: " + points.Length + " points, " + moisture.Length + " and " + warmth.Length + " values");
            Check.That(Array.TrueForAll(moisture, v => v == 0.25) && Array.TrueForAll(warmth, v => v == -0.125),
                       "every value is the constant field's");
            Check.That(stones.Attribute("warmth", 0, 0, 150, 100).Length == stones.Region(0, 0, 150, 100).Length,
                       "a region's values are its points'");
            Check.Throws<ArgumentException>(() => stones.Attribute("wind"), "an unknown attribute");
        }
        Console.WriteLine("attributes: names in chain order, a value a point, by region");
    }

    static int Main(string[] args)
    {
        var sections = new Dictionary<string, Action>
        {
            { "layouts", Layouts },
            { "presets", Presets },
            { "handles", GroveHandleTests.Run },
            { "errors", GroveErrorTests.Run },
            { "streaming", GroveStreamingTests.Run },
            { "axes", GroveAxesTests.Run },
            { "attributes", Attributes },
        };
        var chosen = args.Length > 0 ? args : new[] { "layouts", "axes", "errors", "presets", "handles", "streaming", "attributes" };
        try
        {
            Console.WriteLine("libgrove " + GroveGraph.Version + " through the C# binding, culture '" +
                              System.Globalization.CultureInfo.CurrentCulture.Name + "'");
        }
        catch (DllNotFoundException e)
        {
            Console.Error.WriteLine("libgrove not found (" + e.Message + "): put a dllmap for \"grove\" in GroveBindingTest.exe.config " +
                                    "(CMake writes one) or its folder in LD_LIBRARY_PATH");
            return 1;
        }
        foreach (string name in chosen)
        {
            Action section;
            if (!sections.TryGetValue(name, out section))
            {
                Console.Error.WriteLine("unknown section '" + name + "'; sections: " + string.Join(" ", new List<string>(sections.Keys).ToArray()));
                return 2;
            }
            try
            {
                section();
            }
            catch (Exception e)
            {
                Check.That(false, name + ": " + e);
            }
        }
        Console.WriteLine(Check.Failures == 0 ? "all passed" : Check.Failures + " failed");
        return Check.Failures == 0 ? 0 : 1;
    }
}
