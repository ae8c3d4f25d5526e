// A streaming session through the binding: a source walks across the endless preset for hundreds of
// updates with a per-frame budget, its chunks go into the instance store a Unity streamer draws from
// (which refuses a chunk delivered twice while held, or unloaded while not held); every chunk meeting
// the source's disc is delivered, unloads only beyond radius + margin, and a delivered chunk's points
// are grove_points_in_chunk's and grove-cli's for the same square.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Grove;

static class GroveStreamingTests
{
    const int Steps = 400;
    const double Radius = 300, Speed = 12; // a walk: 4,800 units, about 19 chunks, diagonally
    const long Budget = 2000;              // microseconds a frame
    const long Patience = 60000000;        // a wait's timeout; the drain never depends on it being reached

    static double ToSquare(double x, double y, GroveChunkKey key, double chunk)
    {
        double dx = Math.Max(Math.Max(key.I * chunk - x, 0), x - (key.I + 1) * chunk);
        double dy = Math.Max(Math.Max(key.J * chunk - y, 0), y - (key.J + 1) * chunk);
        return Math.Sqrt(dx * dx + dy * dy);
    }

    public static void Run()
    {
        string file = Path.Combine(Check.Source, "presets", "endless.grove.yaml");
        using (GroveGraph graph = GroveGraph.OpenFile(file))
        using (GroveSession session = graph.OpenSession(graph.Layers.Select(l => l.Name).ToList(),
                                                        new GroveSessionOptions { Workers = 2 }))
        {
            double chunk = graph.ChunkSize, margin = chunk / 2;
            var store = new GroveInstanceStore<GroveMatrix>(m => m);
            var held = new Dictionary<GroveChunkKey, GrovePoint[]>();
            var deliveries = new Dictionary<GroveChunkKey, int>();
            int unloaded = 0, compared = 0, drains = 0, largest = 0;
            double x = 40, y = 70;
            Func<GroveUpdate, bool> take = update =>
            {
                try
                {
                    store.Apply(update); // throws on a chunk delivered twice while held, or unloaded while not held
                }
                catch (InvalidOperationException e)
                {
                    Check.That(false, "step: " + e.Message);
                    return false;
                }
                foreach (GroveChunkKey key in update.Unload)
                {
                    double d = ToSquare(x, y, key, chunk);
                    Check.That(d > Radius + margin - 1e-9, key + " unloaded " + d + " from the source, within radius + margin");
                    held.Remove(key);
                    ++unloaded;
                }
                foreach (GroveChunk c in update.Ready)
                {
                    Check.That(ToSquare(x, y, c.Key, chunk) <= Radius, c.Key + " delivered outside the source's disc");
                    Check.That(c.LayerName == graph.Layers[c.Key.Layer].Name, c.Key + " is named after its layer");
                    held[c.Key] = c.Points;
                    int n;
                    deliveries[c.Key] = deliveries.TryGetValue(c.Key, out n) ? n + 1 : 1;
                    largest = Math.Max(largest, c.Points.Length);
                    if (deliveries.Count % 16 == 1 && deliveries[c.Key] == 1) // now and then: the same points as asked directly
                    {
                        GrovePoint[] direct = graph.PointsInChunk(c.LayerName, c.Key.I, c.Key.J);
                        Check.That(Check.FirstDifference(c.Points, direct) < 0, c.Key + ": the session's points are not the chunk's");
                        ++compared;
                    }
                }
                return true;
            };
            var source = new GroveSource[1];
            for (int step = 0; step < Steps; ++step)
            {
                x += Speed * 0.8;
                y += Speed * 0.6;
                source[0] = new GroveSource(x, y, Radius);
                if (!take(session.Update(source, Budget)))
                    return;
                if (step % 40 != 39 && step != Steps - 1)
                    continue;
                // the source stands still: everything wanted arrives, and each chunk meeting the disc is held
                ++drains;
                while (true)
                {
                    GroveUpdate update = session.Update(source, 0);
                    if (!take(update))
                        return;
                    if (update.Pending == 0)
                        break;
                    session.Wait(Patience);
                }
                int c0 = (int)Math.Floor((x - Radius) / chunk), c1 = (int)Math.Floor((x + Radius) / chunk);
                int r0 = (int)Math.Floor((y - Radius) / chunk), r1 = (int)Math.Floor((y + Radius) / chunk);
                int missing = 0, wanted = 0;
                for (int layer = 0; layer < graph.Layers.Count; ++layer)
                    for (int j = r0; j <= r1; ++j)
                        for (int i = c0; i <= c1; ++i)
                        {
                            var key = new GroveChunkKey(layer, i, j);
                            if (ToSquare(x, y, key, chunk) > Radius)
                                continue;
                            ++wanted;
                            missing += store.Holds(key) ? 0 : 1;
                        }
                Check.That(missing == 0, "step " + step + ": " + missing + " of the " + wanted + " chunks meeting the disc are not held");
            }
            GroveSessionStats stats = session.Stats;
            int points = held.Values.Sum(p => p.Length);
            Check.That(store.InstanceCount == points, "the store holds " + store.InstanceCount + " instances, the chunks held " + points);
            Check.That(store.ChunkCount == held.Count && stats.resident == held.Count,
                       "chunks held: store " + store.ChunkCount + ", test " + held.Count + ", session " + stats.resident);
            Check.That(store.Batches.All(b => b.Count >= 1 && b.Count <= GroveInstanceStore<GroveMatrix>.MaxBatch &&
                                              b.Type >= 0 && b.Type < graph.Layers[b.Layer].Types.Count),
                       "every batch has 1 to 1023 instances of one of its layer's types");
            Check.That(stats.delivered == deliveries.Values.Sum() && stats.evicted == unloaded,
                       "stats count what was handed over: delivered " + stats.delivered + ", evicted " + stats.evicted);
            Check.That(unloaded > 50 && deliveries.Count > 100, "the walk loads and unloads many chunks: " + deliveries.Count + " delivered, " + unloaded + " unloaded");
            Check.That(compared > 5, "session chunks compared with grove_points_in_chunk: " + compared);

            // one held chunk against grove-cli's export of its square
            GroveChunkKey probe = held.Keys.First(k => held[k].Length > 0);
            string name = graph.Layers[probe.Layer].Name;
            string region = string.Join(",", new[] { probe.I * chunk, probe.J * chunk, (probe.I + 1) * chunk, (probe.J + 1) * chunk }
                .Select(v => v.ToString(System.Globalization.CultureInfo.InvariantCulture)).ToArray());
            GroveExport cli = GroveExport.Read(Check.Cli("eval", file, "--format", "json", "--quiet", "--layers", name, "--region", region));
            Check.That(Check.FirstDifference(held[probe], cli.Layers[0].Points) < 0,
                       probe + ": the session's points are not grove-cli's --region " + region);
            // no sources: everything held unloads
            GroveUpdate none = session.Update(new GroveSource[0], 0);
            Check.That(none.Unload.Count == held.Count && none.Ready.Count == 0 && none.Pending == 0,
                       "with no sources the " + held.Count + " held chunks unload: " + none.Unload.Count + " listed");
            store.Apply(none);
            Check.That(store.ChunkCount == 0 && store.InstanceCount == 0, "the store is empty after they unload");
            Console.WriteLine("streaming: " + Steps + " updates, " + drains + " drains; " + deliveries.Count + " chunks delivered, " +
                              unloaded + " unloaded, " + held.Count + " held (" + points + " points, largest chunk " + largest +
                              "); update " + stats.updateMicroseconds + " us in all, workers " + stats.workerMicroseconds + " us");
        }
    }
}
