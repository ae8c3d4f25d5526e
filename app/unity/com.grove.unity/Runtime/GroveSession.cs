// A streaming session over libgrove (grove_session_*): the chunks of a graph's layers around moving
// sources, placed on libgrove's worker threads and handed over by Update() as copied GrovePoint
// arrays. Used from one thread at a time (a game's main thread). Unity-free.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace Grove
{
    /// <summary>A chunk of a layer: the graph's layer index and the chunk's indices.</summary>
    public struct GroveChunkKey : IEquatable<GroveChunkKey>
    {
        public readonly int Layer, I, J;

        public GroveChunkKey(int layer, int i, int j)
        {
            Layer = layer;
            I = i;
            J = j;
        }

        public bool Equals(GroveChunkKey other)
        {
            return Layer == other.Layer && I == other.I && J == other.J;
        }

        public override bool Equals(object other)
        {
            return other is GroveChunkKey && Equals((GroveChunkKey)other);
        }

        public override int GetHashCode()
        {
            return (Layer * 73856093) ^ (I * 19349663) ^ (J * 83492791);
        }

        public override string ToString()
        {
            return "layer " + Layer + " chunk (" + I + ", " + J + ")";
        }
    }

    /// <summary>A chunk handed over: its key, its layer's name and its points (a copy: kept as long as you like).</summary>
    public sealed class GroveChunk
    {
        public GroveChunkKey Key { get; private set; }
        public string LayerName { get; private set; }
        public GrovePoint[] Points { get; private set; }

        internal GroveChunk(GroveChunkKey key, string layerName, GrovePoint[] points)
        {
            Key = key;
            LayerName = layerName;
            Points = points;
        }
    }

    /// <summary>What an update gave: chunks to load (nearest a source first), delivered chunks to unload, and the
    /// wanted chunks not delivered yet.</summary>
    public sealed class GroveUpdate
    {
        public IList<GroveChunk> Ready { get; private set; }
        public IList<GroveChunkKey> Unload { get; private set; }
        public int Pending { get; private set; }

        internal GroveUpdate(GroveChunk[] ready, GroveChunkKey[] unload, int pending)
        {
            Ready = Array.AsReadOnly(ready);
            Unload = Array.AsReadOnly(unload);
            Pending = pending;
        }
    }

    public sealed class GroveSession : IDisposable
    {
        static readonly int ChunkBytes = Marshal.SizeOf(typeof(GroveSessionChunkNative));
        static readonly int RefBytes = Marshal.SizeOf(typeof(GroveChunkRefNative));
        static readonly int PointBytes = Marshal.SizeOf(typeof(GrovePoint));

        readonly GroveSessionHandle handle;
        GroveSource[] sourceBuffer = new GroveSource[1];

        /// <summary>The graph it streams (kept alive by the session).</summary>
        public GroveGraph Graph { get; private set; }

        internal GroveSession(GroveGraph graph, GroveSessionHandle handle)
        {
            Graph = graph;
            this.handle = handle;
        }

        public bool IsDisposed
        {
            get { return handle.IsClosed; }
        }

        GroveSessionHandle Handle
        {
            get
            {
                if (handle.IsClosed)
                    throw new ObjectDisposedException("GroveSession", "the session is disposed");
                return handle;
            }
        }

        /// <summary>Sets the sources (none: unload everything) and hands over what is ready, for about
        /// <paramref name="budgetMicroseconds"/> (0: every ready chunk; at least one when any is ready).</summary>
        public GroveUpdate Update(IList<GroveSource> sources, long budgetMicroseconds)
        {
            if (sources == null)
                throw new ArgumentNullException("sources");
            if (budgetMicroseconds < 0)
                throw new ArgumentOutOfRangeException("budgetMicroseconds", budgetMicroseconds, "the budget must not be negative");
            if (sourceBuffer.Length < sources.Count)
                sourceBuffer = new GroveSource[sources.Count];
            sources.CopyTo(sourceBuffer, 0);
            GroveUpdateResultNative result;
            if (GroveNative.SessionUpdate(Handle, sourceBuffer, sources.Count, budgetMicroseconds, out result) != 0)
                throw Failure();
            var ready = new GroveChunk[result.readyCount];
            for (int k = 0; k < ready.Length; ++k)
            {
                var chunk = (GroveSessionChunkNative)Marshal.PtrToStructure(Offset(result.ready, k, ChunkBytes),
                                                                               typeof(GroveSessionChunkNative));
                var points = new GrovePoint[chunk.count];
                Copy(chunk.points, points);
                ready[k] = new GroveChunk(new GroveChunkKey(chunk.layer, chunk.i, chunk.j), Graph.Layers[chunk.layer].Name, points);
            }
            var unload = new GroveChunkKey[result.unloadCount];
            for (int k = 0; k < unload.Length; ++k)
            {
                var key = (GroveChunkRefNative)Marshal.PtrToStructure(Offset(result.unload, k, RefBytes),
                                                                         typeof(GroveChunkRefNative));
                unload[k] = new GroveChunkKey(key.layer, key.i, key.j);
            }
            return new GroveUpdate(ready, unload, result.pending);
        }

        static IntPtr Offset(IntPtr array, int index, int size)
        {
            return new IntPtr(array.ToInt64() + (long)index * size);
        }

        // the session's points stay valid until the next update: copied, so they are the caller's to keep
        static unsafe void Copy(IntPtr from, GrovePoint[] to)
        {
            if (to.Length == 0)
                return;
            long bytes = (long)to.Length * PointBytes;
            fixed (GrovePoint* destination = to)
                Buffer.MemoryCopy(from.ToPointer(), destination, bytes, bytes);
        }

        /// <summary>Blocks until a chunk is ready, nothing is left to compute, the memory cap stops the workers or
        /// the timeout passed; the chunks ready now.</summary>
        public int Wait(long timeoutMicroseconds)
        {
            if (timeoutMicroseconds < 0)
                throw new ArgumentOutOfRangeException("timeoutMicroseconds", timeoutMicroseconds, "the timeout must not be negative");
            int ready = GroveNative.SessionWait(Handle, timeoutMicroseconds);
            if (ready < 0)
                throw Failure();
            return ready;
        }

        /// <summary>The counters for a debug overlay.</summary>
        public GroveSessionStats Stats
        {
            get
            {
                GroveSessionStats stats;
                if (GroveNative.SessionGetStats(Handle, out stats) != 0)
                    throw Failure();
                return stats;
            }
        }

        static Exception Failure()
        {
            string message = GroveUtf8.LastError();
            if (message.StartsWith("not an open session", StringComparison.Ordinal))
                return new ObjectDisposedException("GroveSession", message);
            return new GroveException(message);
        }

        /// <summary>Cancels the session's work, joins its workers and frees it.</summary>
        public void Dispose()
        {
            handle.Dispose();
            Graph.Forget(this);
        }
    }
}
