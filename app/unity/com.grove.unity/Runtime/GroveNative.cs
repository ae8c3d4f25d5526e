// libgrove's C API (app/capi/grove.h) as P/Invoke declarations: every struct with grove.h's fields
// in grove.h's order and C's sizes (int: int, long long: long, size_t: UIntPtr, pointers: IntPtr),
// every function with its exact parameters. Strings go in as NUL-terminated UTF-8 byte arrays and
// come back as IntPtr, decoded by GroveUtf8: the marshaller's own string conversion is ANSI on
// Windows. Unity-free: the Mono test compiles this file as Unity does.
using System;
using System.Runtime.InteropServices;

namespace Grove
{
    /// <summary>One point: 64 bytes, no padding. Grove's plane: x right, y down, rotation in degrees clockwise.</summary>
    [Serializable]
    [StructLayout(LayoutKind.Sequential)]
    public struct GrovePoint
    {
        public double x, y;
        public double z;        // height, 0 without one
        public double r;        // the point's radius
        public double rotation; // degrees, clockwise on the map
        public double scale;
        public ulong id;        // unique in the layer, below 2^53
        public int type;        // index into the layer's types
        public int reserved;    // 0
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct GroveWorldInfo
    {
        public double width, height; // 0 for an endless world
        public double chunk;         // 0 when the world has no chunks
        public int endless;
        public int seed;
    }

    [StructLayout(LayoutKind.Sequential)]
    struct GroveOptionsNative
    {
        public long maxPoints;
        public IntPtr baseDir;  // const char *
        public IntPtr sets;     // const char *const *
        public UIntPtr setCount;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct GroveActivity
    {
        public int callsRunning;
        public long piecesDone;
    }

    [StructLayout(LayoutKind.Sequential)]
    struct GroveSessionOptionsNative
    {
        public int workers;
        public int maxChunks;
        public long memoryCap;
        public double unloadMargin;
    }

    /// <summary>A streaming source on Grove's map: the chunks meeting the disc of <c>radius</c> around (x, y) are wanted.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct GroveSource
    {
        public double x, y, radius;

        public GroveSource(double x, double y, double radius)
        {
            this.x = x;
            this.y = y;
            this.radius = radius;
        }
    }

    [StructLayout(LayoutKind.Sequential)]
    struct GroveSessionChunkNative
    {
        public int layer;
        public int i, j;
        public IntPtr points; // const grove_point *
        public long count;
    }

    [StructLayout(LayoutKind.Sequential)]
    struct GroveChunkRefNative
    {
        public int layer, i, j;
    }

    [StructLayout(LayoutKind.Sequential)]
    struct GroveUpdateResultNative
    {
        public IntPtr ready; // const grove_session_chunk *
        public int readyCount;
        public IntPtr unload; // const grove_chunk_ref *
        public int unloadCount;
        public int pending;
    }

    /// <summary>A session's counters: states now, totals since it opened.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct GroveSessionStats
    {
        public int queued, computing, ready, resident;
        public long delivered, evicted, cancelled;
        public long updateMicroseconds, workerMicroseconds;
        public long bytesHeld;
        public long memoryCap;
    }

    static class GroveNative
    {
        const string Library = "grove"; // libgrove.so, grove.dll, libgrove.dylib

        [DllImport(Library, EntryPoint = "grove_version")]
        public static extern IntPtr Version();

        [DllImport(Library, EntryPoint = "grove_open_with")]
        public static extern GroveGraphHandle OpenWith(byte[] yaml, UIntPtr length, byte[] nameForMessages,
                                                       ref GroveOptionsNative options, [Out] byte[] error, UIntPtr errorSize);

        [DllImport(Library, EntryPoint = "grove_open_file_with")]
        public static extern GroveGraphHandle OpenFileWith(byte[] path, ref GroveOptionsNative options, [Out] byte[] error,
                                                           UIntPtr errorSize);

        // the handle as a number: SafeHandle.ReleaseHandle passes it on once
        [DllImport(Library, EntryPoint = "grove_close")]
        public static extern void Close(IntPtr graph);

        [DllImport(Library, EntryPoint = "grove_layer_count")]
        public static extern int LayerCount(GroveGraphHandle graph);

        [DllImport(Library, EntryPoint = "grove_layer_name")]
        public static extern IntPtr LayerName(GroveGraphHandle graph, int layerIndex);

        [DllImport(Library, EntryPoint = "grove_layer_index")]
        public static extern int LayerIndex(GroveGraphHandle graph, byte[] layer);

        [DllImport(Library, EntryPoint = "grove_layer_type_count")]
        public static extern int LayerTypeCount(GroveGraphHandle graph, int layerIndex);

        [DllImport(Library, EntryPoint = "grove_layer_type_name")]
        public static extern IntPtr LayerTypeName(GroveGraphHandle graph, int layerIndex, int typeIndex);

        [DllImport(Library, EntryPoint = "grove_layer_has_z")]
        public static extern int LayerHasZ(GroveGraphHandle graph, int layerIndex);

        [DllImport(Library, EntryPoint = "grove_world")]
        public static extern int World(GroveGraphHandle graph, out GroveWorldInfo info);

        [DllImport(Library, EntryPoint = "grove_world_wrap")]
        public static extern int WorldWrap(GroveGraphHandle graph, out int wrapX, out int wrapY);

        [DllImport(Library, EntryPoint = "grove_chunk_size")]
        public static extern double ChunkSize(GroveGraphHandle graph);

        [DllImport(Library, EntryPoint = "grove_points_in_region")]
        public static extern long PointsInRegion(GroveGraphHandle graph, byte[] layer, double x0, double y0, double x1,
                                                 double y1, [Out] GrovePoint[] points, long capacity, [Out] byte[] error,
                                                 UIntPtr errorSize);

        [DllImport(Library, EntryPoint = "grove_layer_attribute_count")]
        public static extern int LayerAttributeCount(GroveGraphHandle graph, int layerIndex);

        [DllImport(Library, EntryPoint = "grove_layer_attribute_name")]
        public static extern IntPtr LayerAttributeName(GroveGraphHandle graph, int layerIndex, int attributeIndex);

        [DllImport(Library, EntryPoint = "grove_attribute_in_region")]
        public static extern long AttributeInRegion(GroveGraphHandle graph, byte[] layer, int attributeIndex, double x0,
                                                    double y0, double x1, double y1, [Out] double[] values, long capacity,
                                                    [Out] byte[] error, UIntPtr errorSize);

        [DllImport(Library, EntryPoint = "grove_points_in_chunk")]
        public static extern long PointsInChunk(GroveGraphHandle graph, byte[] layer, int i, int j, [Out] GrovePoint[] points,
                                                long capacity, [Out] byte[] error, UIntPtr errorSize);

        [DllImport(Library, EntryPoint = "grove_cancel")]
        public static extern int Cancel(GroveGraphHandle graph);

        [DllImport(Library, EntryPoint = "grove_resume")]
        public static extern int Resume(GroveGraphHandle graph);

        [DllImport(Library, EntryPoint = "grove_get_activity")]
        public static extern int GetActivity(GroveGraphHandle graph, out GroveActivity activity);

        [DllImport(Library, EntryPoint = "grove_set_threads")]
        public static extern int SetThreads(GroveGraphHandle graph, int threads);

        [DllImport(Library, EntryPoint = "grove_set_max_points")]
        public static extern int SetMaxPoints(GroveGraphHandle graph, long maxPoints);

        [DllImport(Library, EntryPoint = "grove_set_cache_bytes")]
        public static extern int SetCacheBytes(GroveGraphHandle graph, UIntPtr bytes);

        [DllImport(Library, EntryPoint = "grove_session_open")]
        public static extern GroveSessionHandle SessionOpen(GroveGraphHandle graph, IntPtr[] layers, int layerCount,
                                                            ref GroveSessionOptionsNative options, [Out] byte[] error,
                                                            UIntPtr errorSize);

        [DllImport(Library, EntryPoint = "grove_session_update")]
        public static extern int SessionUpdate(GroveSessionHandle session, GroveSource[] sources, int sourceCount,
                                               long budgetMicroseconds, out GroveUpdateResultNative result);

        [DllImport(Library, EntryPoint = "grove_session_wait")]
        public static extern int SessionWait(GroveSessionHandle session, long timeoutMicroseconds);

        [DllImport(Library, EntryPoint = "grove_session_get_stats")]
        public static extern int SessionGetStats(GroveSessionHandle session, out GroveSessionStats stats);

        [DllImport(Library, EntryPoint = "grove_session_close")]
        public static extern void SessionClose(IntPtr session);

        [DllImport(Library, EntryPoint = "grove_last_error")]
        public static extern IntPtr LastError();
    }
}
