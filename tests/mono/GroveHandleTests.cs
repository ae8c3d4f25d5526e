// Thousands of graph handles through the binding: disposed, or abandoned to the garbage collector
// (SafeHandle's finalizer closes them), every one closed in libgrove afterwards and the process's
// memory flat.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Runtime.InteropServices;
using Grove;

static class GroveHandleTests
{
    const int Handles = 5000;
    const long MemoryBound = 48L << 20; // growth allowed over thousands of handles: a leak of one graph each is far above

    // libgrove's own view of a raw handle, apart from the binding: -1 "not an open graph" once closed
    [DllImport("grove")]
    static extern int grove_layer_count(IntPtr graph);

    [DllImport("grove")]
    static extern int grove_session_wait(IntPtr session, long timeoutMicroseconds);

    public const string Tiny = "grove: 1\nworld: {width: 60, height: 60, seed: 4}\nnodes:\n  dots:\n    type: place_layer\n" +
                               "    params: {radius: 6, seed: 2}\n";
    public const string TinyChunked = "grove: 1\nworld: {width: 256, height: 256, chunk: 64, seed: 4}\nnodes:\n  dots:\n" +
                                      "    type: place_layer\n    params: {radius: 6, seed: 2}\n";

    static long Resident()
    {
        for (int k = 0; k < 3; ++k)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
        }
        using (Process self = Process.GetCurrentProcess())
            return self.WorkingSet64;
    }

    static int StillOpen(List<IntPtr> raw)
    {
        int open = 0;
        foreach (IntPtr handle in raw)
            open += grove_layer_count(handle) >= 0 ? 1 : 0;
        return open;
    }

    static List<IntPtr> OpenAndDispose(int count)
    {
        var raw = new List<IntPtr>();
        for (int k = 0; k < count; ++k)
        {
            GroveGraph graph = GroveGraph.OpenText(Tiny, "tiny");
            raw.Add(graph.Layers.Count == 1 ? RawHandle(graph) : IntPtr.Zero);
            graph.Dispose();
        }
        return raw;
    }

    static List<IntPtr> OpenAndAbandon(int count, List<IntPtr> sessions)
    {
        var raw = new List<IntPtr>();
        for (int k = 0; k < count; ++k)
        {
            GroveGraph graph = GroveGraph.OpenText(k % 50 == 0 ? TinyChunked : Tiny, "tiny");
            raw.Add(RawHandle(graph));
            if (k % 50 == 0) // now and then a session too, abandoned with its graph
                sessions.Add(RawSession(graph.OpenSession(new[] { "dots" }, new GroveSessionOptions { Workers = 1 })));
        }
        return raw;
    }

    static IntPtr RawHandle(GroveGraph graph)
    {
        var field = typeof(GroveGraph).GetField("handle", System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Instance);
        return ((SafeHandle)field.GetValue(graph)).DangerousGetHandle();
    }

    static IntPtr RawSession(GroveSession session)
    {
        var field = typeof(GroveSession).GetField("handle", System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Instance);
        return ((SafeHandle)field.GetValue(session)).DangerousGetHandle();
    }

    // Dispose on one thread while another is inside a long region call: the call ends cancelled, not after its work
    static void DisposeWhileBusy()
    {
        GroveGraph graph = GroveGraph.OpenFile(System.IO.Path.Combine(Check.Source, "presets", "endless.grove.yaml"));
        Exception ended = null;
        int points = -1;
        var worker = new System.Threading.Thread(() =>
        {
            try
            {
                points = graph.PointsInRegion("trees", 0, 0, 256 * 40, 256 * 40).Length; // 1,600 chunks: long
            }
            catch (Exception e)
            {
                ended = e;
            }
        });
        worker.Start();
        while (graph.Activity.callsRunning == 0 && worker.IsAlive)
            System.Threading.Thread.Yield();
        graph.Dispose();
        worker.Join();
        Check.That(ended is GroveCancelledException,
                   "a region call running while its graph is disposed ends cancelled: " + (ended == null ? points + " points" : ended.ToString()));
    }

    public static void Run()
    {
        DisposeWhileBusy();
        OpenAndDispose(200); // warm up: the JIT, libgrove's first allocations
        long before = Resident();
        List<IntPtr> disposed = OpenAndDispose(Handles);
        long afterDisposed = Resident();
        Check.That(!disposed.Contains(IntPtr.Zero), "every opened graph has its one layer");
        Check.That(new HashSet<IntPtr>(disposed).Count == Handles, "handles are never reused");
        int open = StillOpen(disposed);
        Check.That(open == 0, open + " of " + Handles + " disposed graphs are still open in libgrove");

        var sessions = new List<IntPtr>();
        // on a thread of their own that ends: Mono scans stacks conservatively, and a stale slot of a live
        // stack could keep the last graph reachable
        List<IntPtr> abandoned = null;
        var opener = new System.Threading.Thread(() => abandoned = OpenAndAbandon(Handles, sessions));
        opener.Start();
        opener.Join();
        long afterAbandoned = Resident();
        open = StillOpen(abandoned);
        Check.That(open == 0, open + " of " + Handles + " abandoned graphs were not closed by their finalizer");
        int sessionsOpen = 0;
        foreach (IntPtr session in sessions)
            sessionsOpen += grove_session_wait(session, 0) >= 0 ? 1 : 0;
        Check.That(sessionsOpen == 0, sessionsOpen + " of " + sessions.Count + " abandoned sessions were not closed");

        Check.That(afterDisposed - before < MemoryBound, "memory grew by " + (afterDisposed - before) + " bytes over " + Handles + " disposed graphs");
        Check.That(afterAbandoned - before < MemoryBound, "memory grew by " + (afterAbandoned - before) + " bytes over " + Handles + " abandoned graphs");
        Console.WriteLine("handles: " + Handles + " disposed and " + Handles + " abandoned graphs (" + sessions.Count +
                          " sessions) all closed; resident memory " + (before >> 20) + " MiB, then " + (afterDisposed >> 20) +
                          " MiB, then " + (afterAbandoned >> 20) + " MiB");
    }
}
