// An open graph over libgrove: its world and layers read once at open, points as GrovePoint arrays
// (grove.h's bytes as they are), regions, chunks and streaming sessions. Unity-free.
using System;
using System.Collections.Generic;

namespace Grove
{
    /// <summary>An exported layer: its name, types, whether its points carry heights, and its attributes' names.</summary>
    public sealed class GroveLayer
    {
        readonly GroveGraph graph;

        public int Index { get; private set; }
        public string Name { get; private set; }
        public IList<string> Types { get; private set; }
        public bool HasZ { get; private set; }
        /// <summary>The layer's attributes (a named value a point), in the order of its chain.</summary>
        public IList<string> Attributes { get; private set; }

        internal GroveLayer(GroveGraph graph, int index, string name, string[] types, bool hasZ, string[] attributes)
        {
            this.graph = graph;
            Index = index;
            Name = name;
            Types = Array.AsReadOnly(types);
            HasZ = hasZ;
            Attributes = Array.AsReadOnly(attributes);
        }

        /// <summary>Attribute <paramref name="name"/> of the points Region(x0, y0, x1, y1) gives, in the same order
        /// (by default every point of a finite world, as Points()).</summary>
        public double[] Attribute(string name, double x0 = double.NegativeInfinity, double y0 = double.NegativeInfinity,
                                  double x1 = double.PositiveInfinity, double y1 = double.PositiveInfinity)
        {
            int index = Attributes.IndexOf(name);
            if (index < 0)
                throw new ArgumentException("layer '" + Name + "' has no attribute '" + name + "' (its attributes: "
                                            + string.Join(", ", new List<string>(Attributes).ToArray()) + ")", "name");
            return graph.AttributeInRegion(Name, index, x0, y0, x1, y1);
        }

        /// <summary>The points with x0 &lt;= x &lt; x1 and y0 &lt;= y &lt; y1, in export order.</summary>
        public GrovePoint[] Region(double x0, double y0, double x1, double y1)
        {
            return graph.PointsInRegion(Name, x0, y0, x1, y1);
        }

        /// <summary>The points of chunk (i, j): [i c, (i + 1) c) x [j c, (j + 1) c), c the chunk size.</summary>
        public GrovePoint[] Chunk(int i, int j)
        {
            return graph.PointsInChunk(Name, i, j);
        }

        /// <summary>Every point of a finite world's layer, in the order and with the bytes of grove-cli's JSON export.</summary>
        public GrovePoint[] Points()
        {
            if (graph.World.endless != 0)
                throw new GroveException("layer '" + Name + "': the world is endless: ask for a region or a chunk");
            return Region(double.NegativeInfinity, double.NegativeInfinity, double.PositiveInfinity, double.PositiveInfinity);
        }
    }

    /// <summary>A streaming session's settings; 0 is libgrove's default of each.</summary>
    public sealed class GroveSessionOptions
    {
        public int Workers;         // 1 to 256; 0: the cores less one, 1 to 8
        public int MaxChunks;       // chunk squares wanted at once; 0: 16,384
        public long MemoryCap;      // bytes of points ready but undelivered; 0: 64 MiB
        public double UnloadMargin; // a delivered chunk unloads beyond radius + margin; 0: half a chunk
    }

    /// <summary>An open graph. Safe from several threads at once, as libgrove is; Dispose frees it (and its sessions).</summary>
    public sealed class GroveGraph : IDisposable
    {
        const int OpenMessageBytes = 1 << 16; // every problem of a graph, one a line
        const int CallMessageBytes = 4096;

        readonly GroveGraphHandle handle;
        readonly List<GroveSession> sessions = new List<GroveSession>();
        readonly GroveLayer[] layers;

        public GroveWorldInfo World { get; private set; }
        /// <summary>The world repeats along x (world.wrap: a tileable world).</summary>
        public bool WrapX { get; private set; }
        /// <summary>The world repeats along y (world.wrap: a tileable world).</summary>
        public bool WrapY { get; private set; }
        public IList<GroveLayer> Layers { get; private set; }

        /// <summary>The Grove release libgrove comes from ("0.1.0").</summary>
        public static string Version
        {
            get { return GroveUtf8.FromNative(GroveNative.Version()); }
        }

        GroveGraph(GroveGraphHandle handle)
        {
            this.handle = handle;
            GroveWorldInfo world;
            Checked(GroveNative.World(handle, out world));
            World = world;
            int wrapX, wrapY;
            Checked(GroveNative.WorldWrap(handle, out wrapX, out wrapY));
            WrapX = wrapX != 0;
            WrapY = wrapY != 0;
            layers = new GroveLayer[Checked(GroveNative.LayerCount(handle))];
            for (int k = 0; k < layers.Length; ++k)
            {
                var types = new string[Checked(GroveNative.LayerTypeCount(handle, k))];
                for (int t = 0; t < types.Length; ++t)
                    types[t] = Text(GroveNative.LayerTypeName(handle, k, t));
                var attributes = new string[Checked(GroveNative.LayerAttributeCount(handle, k))];
                for (int a = 0; a < attributes.Length; ++a)
                    attributes[a] = Text(GroveNative.LayerAttributeName(handle, k, a));
                layers[k] = new GroveLayer(this, k, Text(GroveNative.LayerName(handle, k)), types,
                                           Checked(GroveNative.LayerHasZ(handle, k)) == 1, attributes);
            }
            Layers = Array.AsReadOnly(layers);
        }

        /// <summary>Opens and evaluates the graph file at <paramref name="path"/> (its file params resolve against its
        /// folder), with <paramref name="overrides"/> "NODE.PARAM=VALUE" applied first, as grove-cli's --set.</summary>
        public static GroveGraph OpenFile(string path, IEnumerable<string> overrides = null, long maxPoints = 0)
        {
            if (path == null)
                throw new ArgumentNullException("path");
            if (path.Length == 0)
                throw new ArgumentException("the graph file's path is empty", "path");
            byte[] pathBytes = GroveUtf8.Terminated(path, "path");
            using (var strings = new GroveNativeStrings())
            {
                GroveOptionsNative options = Options(strings, overrides, maxPoints, null);
                var error = new byte[OpenMessageBytes];
                return Opened(GroveNative.OpenFileWith(pathBytes, ref options, error, (UIntPtr)error.Length), error);
            }
        }

        /// <summary>Opens and evaluates a graph from its YAML text; messages name it <paramref name="name"/>; its file
        /// params resolve against <paramref name="baseDirectory"/> (null: the working folder).</summary>
        public static GroveGraph OpenText(string yaml, string name = "graph", IEnumerable<string> overrides = null,
                                          string baseDirectory = null, long maxPoints = 0)
        {
            if (yaml == null)
                throw new ArgumentNullException("yaml");
            if (string.IsNullOrEmpty(name))
                throw new ArgumentException("the name for messages is empty", "name");
            byte[] text = GroveUtf8.Terminated(yaml, "yaml");
            byte[] nameBytes = GroveUtf8.Terminated(name, "name");
            using (var strings = new GroveNativeStrings())
            {
                GroveOptionsNative options = Options(strings, overrides, maxPoints, baseDirectory);
                var error = new byte[OpenMessageBytes];
                return Opened(GroveNative.OpenWith(text, (UIntPtr)(text.Length - 1), nameBytes, ref options, error,
                                                   (UIntPtr)error.Length), error);
            }
        }

        static GroveOptionsNative Options(GroveNativeStrings strings, IEnumerable<string> overrides, long maxPoints,
                                          string baseDirectory)
        {
            if (maxPoints < 0)
                throw new ArgumentOutOfRangeException("maxPoints", maxPoints, "the point limit must not be negative");
            var sets = overrides == null ? new string[0] : new List<string>(overrides).ToArray();
            var options = new GroveOptionsNative();
            options.maxPoints = maxPoints;
            options.baseDir = string.IsNullOrEmpty(baseDirectory) ? IntPtr.Zero : strings.Add(baseDirectory, "baseDirectory");
            options.sets = strings.AddArray(sets, "overrides");
            options.setCount = (UIntPtr)sets.Length;
            return options;
        }

        static GroveGraph Opened(GroveGraphHandle handle, byte[] error)
        {
            if (handle.IsInvalid)
            {
                string message = GroveUtf8.FromBuffer(error);
                throw new GroveGraphException(message.Length > 0 ? message : "the graph did not open");
            }
            try
            {
                return new GroveGraph(handle);
            }
            catch
            {
                handle.Dispose();
                throw;
            }
        }

        public bool IsDisposed
        {
            get { return handle.IsClosed; }
        }

        internal GroveGraphHandle Handle
        {
            get
            {
                if (handle.IsClosed)
                    throw new ObjectDisposedException("GroveGraph", "the graph is disposed");
                return handle;
            }
        }

        static int Checked(int value)
        {
            if (value < 0)
                throw GroveErrors.For(GroveUtf8.LastError());
            return value;
        }

        static string Text(IntPtr value)
        {
            if (value == IntPtr.Zero)
                throw GroveErrors.For(GroveUtf8.LastError());
            return GroveUtf8.FromNative(value);
        }

        /// <summary>The layer with this export name or node id (GroveUnknownLayerException when none).</summary>
        public GroveLayer Layer(string name)
        {
            int index = GroveNative.LayerIndex(Handle, LayerName(name));
            if (index < 0)
            {
                string message = GroveUtf8.LastError();
                if (message.StartsWith("no exported layer", StringComparison.Ordinal))
                {
                    var names = new List<string>();
                    foreach (GroveLayer layer in layers)
                        names.Add("'" + layer.Name + "'");
                    throw new GroveUnknownLayerException(message + " (its layers: " + string.Join(", ", names.ToArray()) + ")");
                }
                throw GroveErrors.For(message);
            }
            return layers[index];
        }

        static byte[] LayerName(string layer)
        {
            if (layer == null)
                throw new ArgumentNullException("layer");
            if (layer.Length == 0)
                throw new ArgumentException("the layer name is empty", "layer");
            return GroveUtf8.Terminated(layer, "layer");
        }

        /// <summary>The side of a chunk; 0 when the world has no chunks.</summary>
        public double ChunkSize
        {
            get { return GroveNative.ChunkSize(Handle); }
        }

        public GrovePoint[] PointsInRegion(string layer, double x0, double y0, double x1, double y1)
        {
            byte[] name = LayerName(layer);
            return Fetch<GrovePoint>((points, capacity, error) =>
                GroveNative.PointsInRegion(Handle, name, x0, y0, x1, y1, points, capacity, error, (UIntPtr)error.Length));
        }

        public double[] AttributeInRegion(string layer, int attribute, double x0, double y0, double x1, double y1)
        {
            byte[] name = LayerName(layer);
            return Fetch<double>((values, capacity, error) =>
                GroveNative.AttributeInRegion(Handle, name, attribute, x0, y0, x1, y1, values, capacity, error,
                                              (UIntPtr)error.Length));
        }

        public GrovePoint[] PointsInChunk(string layer, int i, int j)
        {
            byte[] name = LayerName(layer);
            return Fetch<GrovePoint>((points, capacity, error) =>
                GroveNative.PointsInChunk(Handle, name, i, j, points, capacity, error, (UIntPtr)error.Length));
        }

        // A region call's array: asked for the count, then filled.
        static T[] Fetch<T>(Func<T[], long, byte[], long> call)
        {
            var error = new byte[CallMessageBytes];
            long count = call(null, 0, error);
            if (count < 0)
                throw GroveErrors.For(GroveUtf8.FromBuffer(error));
            var points = new T[count];
            if (count == 0)
                return points;
            // the second call is served from libgrove's cache and gives the same count
            long written = call(points, count, error);
            if (written < 0)
                throw GroveErrors.For(GroveUtf8.FromBuffer(error));
            if (written != count)
                throw new GroveException("libgrove counted " + count + " points, then wrote " + written);
            return points;
        }

        /// <summary>Every call on the graph running or started later fails with GroveCancelledException, until Resume().</summary>
        public void Cancel()
        {
            Checked(GroveNative.Cancel(Handle));
        }

        public void Resume()
        {
            Checked(GroveNative.Resume(Handle));
        }

        public GroveActivity Activity
        {
            get
            {
                GroveActivity activity;
                Checked(GroveNative.GetActivity(Handle, out activity));
                return activity;
            }
        }

        /// <summary>Threads one region call may use (0: every core; default 1).</summary>
        public void SetThreads(int threads)
        {
            Setting(GroveNative.SetThreads(Handle, threads), "threads");
        }

        public void SetMaxPoints(long maxPoints)
        {
            Setting(GroveNative.SetMaxPoints(Handle, maxPoints), "maxPoints");
        }

        public void SetCacheBytes(long bytes)
        {
            if (bytes < 0)
                throw new ArgumentOutOfRangeException("bytes", bytes, "cache bytes must not be negative");
            Setting(GroveNative.SetCacheBytes(Handle, (UIntPtr)(ulong)bytes), "bytes");
        }

        static void Setting(int result, string what)
        {
            if (result != 0)
                throw new ArgumentException(what + ": " + GroveUtf8.LastError(), what);
        }

        /// <summary>A streaming session of these layers (export names or node ids) of a chunked world; disposed with the graph.</summary>
        public GroveSession OpenSession(IList<string> layerNames, GroveSessionOptions options = null)
        {
            if (layerNames == null)
                throw new ArgumentNullException("layerNames");
            if (layerNames.Count == 0)
                throw new ArgumentException("a session streams at least one layer", "layerNames");
            options = options ?? new GroveSessionOptions();
            var native = new GroveSessionOptionsNative();
            native.workers = options.Workers;
            native.maxChunks = options.MaxChunks;
            native.memoryCap = options.MemoryCap;
            native.unloadMargin = options.UnloadMargin;
            using (var strings = new GroveNativeStrings())
            {
                var names = new IntPtr[layerNames.Count];
                for (int k = 0; k < names.Length; ++k)
                    names[k] = strings.Add(layerNames[k], "layerNames[" + k + "]");
                var error = new byte[CallMessageBytes];
                GroveSessionHandle session = GroveNative.SessionOpen(Handle, names, names.Length, ref native, error,
                                                                     (UIntPtr)error.Length);
                if (session.IsInvalid)
                    throw GroveErrors.For(GroveUtf8.FromBuffer(error));
                var opened = new GroveSession(this, session);
                lock (sessions)
                    sessions.Add(opened);
                return opened;
            }
        }

        internal void Forget(GroveSession session)
        {
            lock (sessions)
                sessions.Remove(session);
        }

        /// <summary>Disposes the graph's sessions, then frees the graph; calls running on other threads end cancelled
        /// (GroveCancelledException), and libgrove frees the graph when the last of them returns.</summary>
        public void Dispose()
        {
            GroveSession[] open;
            lock (sessions)
                open = sessions.ToArray();
            foreach (GroveSession session in open)
                session.Dispose();
            // a call in flight holds the SafeHandle, which defers grove_close until it returns: cancel it first
            try
            {
                if (!handle.IsClosed)
                    GroveNative.Cancel(handle);
            }
            catch (ObjectDisposedException)
            {
            }
            handle.Dispose();
        }
    }
}
