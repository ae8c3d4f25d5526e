// Bad input through the binding: located messages as exceptions, ArgumentExceptions for bad
// arguments, ObjectDisposedException after Dispose; never a crash, and the graph still works after.
using System;
using System.IO;
using System.Linq;
using Grove;

static class GroveErrorTests
{
    static readonly GroveSource[] Here = { new GroveSource(30, 30, 50) };

    static void BrokenGraphs()
    {
        var broken = Check.Throws<GroveGraphException>(
            () => GroveGraph.OpenText("grove: 1\nnodes:\n  a:\n    type: place_layer\n    params: {radius: [1, 2\n", "broken.yaml"),
            "a YAML flow left open");
        if (broken != null)
        {
            Check.That(broken.Message.Contains("broken.yaml:6:1: error: not valid YAML"), "the YAML problem is located: " + broken.Message);
            var p = broken.Problems.FirstOrDefault();
            Check.That(p != null && p.File == "broken.yaml" && p.Line == 6 && p.Column == 1 && p.Severity == "error",
                       "the problem parses to broken.yaml:6:1: " + p);
        }
        var empty = Check.Throws<GroveGraphException>(() => GroveGraph.OpenText("", "empty.yaml"), "empty YAML");
        Check.That(empty == null || empty.Message.StartsWith("empty.yaml:1:1: error: "), "the empty graph is located: " +
                   (empty == null ? "" : empty.Message));
        string file = Path.Combine(Path.GetTempPath(), "grove-mono-" + Guid.NewGuid().ToString("N") + ".grove.yaml");
        File.WriteAllText(file, "grove: 1\nworld: {width: 100, height: 100}\nnodes:\n  a:\n    type: place_layer\n    params:\n      radius: -3\n");
        try
        {
            var range = Check.Throws<GroveGraphException>(() => GroveGraph.OpenFile(file), "a radius out of range");
            if (range != null)
            {
                var p = range.Problems.FirstOrDefault();
                Check.That(p != null && p.File == file && p.Line == 7 && p.Column == 15 && p.Message.Contains("radius"),
                           "the param problem is located at its value: " + range.Message);
            }
            File.WriteAllText(file, "grove: 1\nworld: {width: 100, height: 100}\nnodes:\n  a:\n    type: place_layer\n    params:\n      radius: 5\n");
            var overridden = Check.Throws<GroveGraphException>(() => GroveGraph.OpenFile(file, new[] { "a.radius=7", "a.nope=1" }),
                                                               "an override of a param the node does not have");
            Check.That(overridden == null || overridden.Message.Contains("--set a.nope=1"), "the bad override is named: " +
                       (overridden == null ? "" : overridden.Message));
            // a good override is applied as grove-cli's --set applies it
            using (GroveGraph graph = GroveGraph.OpenFile(file, new[] { "a.radius=7" }))
            {
                GroveExport want = GroveExport.Read(Check.Cli("eval", file, "--set", "a.radius=7", "--format", "json", "--quiet"));
                GrovePoint[] got = graph.Layers[0].Points();
                Check.That(got.Length > 0 && Check.FirstDifference(got, want.Layers[0].Points) < 0,
                           "--set a.radius=7 through the binding equals grove-cli's: " + got.Length + " points");
            }
        }
        finally
        {
            File.Delete(file);
        }
        var missing = Check.Throws<GroveGraphException>(() => GroveGraph.OpenFile("/nonexistent/graph.grove.yaml"), "a missing file");
        Check.That(missing == null || missing.Message.Contains("/nonexistent/graph.grove.yaml"), "the missing file is named");
    }

    static void BadArguments(GroveGraph graph)
    {
        Check.Throws<ArgumentNullException>(() => GroveGraph.OpenText(null), "OpenText(null)");
        Check.Throws<ArgumentNullException>(() => GroveGraph.OpenFile(null), "OpenFile(null)");
        Check.Throws<ArgumentException>(() => GroveGraph.OpenFile(""), "OpenFile(\"\")");
        Check.Throws<ArgumentException>(() => GroveGraph.OpenText(GroveHandleTests.Tiny, ""), "OpenText with an empty name");
        Check.Throws<ArgumentException>(() => GroveGraph.OpenText("grove: 1\0nodes: {}"), "YAML with a NUL inside");
        Check.Throws<ArgumentException>(() => GroveGraph.OpenText(GroveHandleTests.Tiny, "t", new string[] { null }), "a null override");
        Check.Throws<ArgumentNullException>(() => graph.Layer(null), "Layer(null)");
        Check.Throws<ArgumentException>(() => graph.Layer(""), "Layer(\"\")");
        Check.Throws<ArgumentNullException>(() => graph.PointsInRegion(null, 0, 0, 1, 1), "a region of a null layer");
        Check.Throws<ArgumentException>(() => graph.PointsInChunk("", 0, 0), "a chunk of an empty layer name");
        Check.Throws<ArgumentNullException>(() => graph.OpenSession(null), "OpenSession(null)");
        Check.Throws<ArgumentException>(() => graph.OpenSession(new string[0]), "a session of no layers");
        Check.Throws<ArgumentOutOfRangeException>(() => graph.SetCacheBytes(-1), "negative cache bytes");
        Check.Throws<ArgumentException>(() => graph.SetThreads(-2), "negative threads");

        var unknown = Check.Throws<GroveUnknownLayerException>(() => graph.Layer("trees"), "an unknown layer");
        Check.That(unknown == null || unknown.Message.Contains("'dots'"), "the unknown layer's message lists the layers");
        Check.Throws<GroveUnknownLayerException>(() => graph.PointsInRegion("trees", 0, 0, 10, 10), "a region of an unknown layer");
        Check.Throws<GroveException>(() => graph.PointsInRegion("dots", double.NaN, 0, 10, 10), "a NaN region");
        Check.Throws<GroveException>(() => graph.PointsInRegion("dots", 10, 0, 0, 10), "an inverted region");
        Check.That(graph.PointsInRegion("dots", 5, 5, 5, 50).Length == 0, "an empty region has no points");
        Check.Throws<GroveException>(() => graph.PointsInChunk("dots", 0, 0), "a chunk of a world without chunks");
        Check.Throws<GroveException>(() => graph.OpenSession(new[] { "dots" }), "a session on a world without chunks");

        graph.Cancel();
        Check.Throws<GroveCancelledException>(() => graph.Layers[0].Points(), "a call on a cancelled graph");
        graph.Resume();
        Check.That(graph.Layers[0].Points().Length > 0, "the graph works again after Resume and every error above");
    }

    static void BadSessions()
    {
        using (GroveGraph graph = GroveGraph.OpenText(GroveHandleTests.TinyChunked, "chunked"))
        {
            Check.Throws<GroveException>(() => graph.OpenSession(new[] { "trees" }), "a session of an unknown layer");
            Check.Throws<GroveException>(() => graph.OpenSession(new[] { "dots", "dots" }), "a session of a repeated layer");
            Check.Throws<GroveException>(() => graph.OpenSession(new[] { "dots" }, new GroveSessionOptions { Workers = 1000 }),
                                         "a session of 1000 workers");
            using (GroveSession session = graph.OpenSession(new[] { "dots" }, new GroveSessionOptions { Workers = 1 }))
            {
                Check.Throws<ArgumentNullException>(() => session.Update(null, 0), "Update(null)");
                Check.Throws<ArgumentOutOfRangeException>(() => session.Update(Here, -1), "a negative budget");
                Check.Throws<ArgumentOutOfRangeException>(() => session.Wait(-1), "a negative timeout");
                var nan = Check.Throws<GroveException>(() => session.Update(new[] { new GroveSource(double.NaN, 0, 10) }, 0), "a NaN source");
                Check.That(nan == null || nan.Message.Length > 0, "the NaN source's message says why");
                Check.Throws<GroveException>(() => session.Update(new[] { new GroveSource(0, 0, -1) }, 0), "a negative radius");
                int delivered = 0;
                while (true)
                {
                    GroveUpdate update = session.Update(Here, 0);
                    delivered += update.Ready.Count;
                    if (update.Pending == 0)
                        break;
                    session.Wait(60000000);
                }
                Check.That(delivered == 4, "after refused updates the session streams: 4 chunks around (30, 30), got " + delivered);
                var disposedWith = graph.OpenSession(new[] { "dots" });
                graph.Dispose();
                Check.That(disposedWith.IsDisposed, "disposing the graph disposes its sessions");
                Check.Throws<ObjectDisposedException>(() => disposedWith.Update(Here, 0), "a session of a disposed graph");
            }
        }
    }

    static void UseAfterDispose()
    {
        GroveGraph graph = GroveGraph.OpenText(GroveHandleTests.TinyChunked, "chunked");
        GroveLayer layer = graph.Layers[0];
        GroveSession session = graph.OpenSession(new[] { "dots" });
        session.Dispose();
        session.Dispose(); // twice: nothing happens
        Check.Throws<ObjectDisposedException>(() => session.Update(Here, 0), "Update after Dispose");
        Check.Throws<ObjectDisposedException>(() => session.Wait(0), "Wait after Dispose");
        Check.Throws<ObjectDisposedException>(() => { var s = session.Stats; }, "Stats after Dispose");
        graph.Dispose();
        graph.Dispose();
        Check.That(graph.IsDisposed, "IsDisposed after Dispose");
        Check.Throws<ObjectDisposedException>(() => layer.Points(), "a layer's points after its graph's Dispose");
        Check.Throws<ObjectDisposedException>(() => layer.Chunk(0, 0), "a layer's chunk after its graph's Dispose");
        Check.Throws<ObjectDisposedException>(() => graph.Layer("dots"), "Layer after Dispose");
        Check.Throws<ObjectDisposedException>(() => { var c = graph.ChunkSize; }, "ChunkSize after Dispose");
        Check.Throws<ObjectDisposedException>(() => graph.OpenSession(new[] { "dots" }), "OpenSession after Dispose");
        Check.Throws<ObjectDisposedException>(() => graph.Cancel(), "Cancel after Dispose");
    }

    static void BadExports()
    {
        var open = Check.Throws<FormatException>(() => GroveExport.Read("{\n  \"format\": \"grove.points\",\n  \"layers\": [1,\n"), "JSON cut short");
        Check.That(open == null || open.Message.StartsWith("4:1: "), "the JSON problem is located: " + (open == null ? "" : open.Message));
        Check.Throws<FormatException>(() => GroveExport.Read("{\"format\": \"other\"}"), "JSON that is not a Grove export");
        Check.Throws<FormatException>(() => GroveExport.Read("{\"format\": \"grove.points\", \"layers\": [{\"name\": \"a\", \"types\": [], " +
                                                             "\"points\": [{\"id\": 0, \"x\": 1, \"y\": 2, \"r\": 1, \"t\": 3, \"rot\": 0, \"s\": 1}]}]}"),
                                      "a point whose type the layer does not have");
        Check.Throws<FormatException>(() => GroveJson.Parse("[1.2.3]"), "a malformed number");
    }

    public static void Run()
    {
        BrokenGraphs();
        using (GroveGraph graph = GroveGraph.OpenText(GroveHandleTests.Tiny, "tiny"))
            BadArguments(graph);
        BadSessions();
        UseAfterDispose();
        BadExports();
        Console.WriteLine("errors: located messages, argument checks and use after Dispose behave");
    }
}
