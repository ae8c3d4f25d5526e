/* libgrove: Grove's C API. Open a graph, list its layers, ask for a layer's points in a region
 * or a chunk, or stream chunks around moving sources (grove_session_*, below). Every graph function
 * is safe from any thread (a session is used from one thread at a time); none throws, none crashes
 * on a bad argument.
 *
 * Errors: a function that fails returns -1 (or NULL) and writes one message to `error` (always
 * NUL-terminated, cut to `error_size` bytes at a UTF-8 boundary; `error` may be NULL or
 * `error_size` 0). grove_last_error() gives the same message for the calling thread.
 *
 * Handles: a grove_graph * is a number, never an address: a closed or made-up handle is an
 * error ("not an open graph"), not a crash. grove_close may run while other threads are inside
 * calls on the same graph: those calls return -1 "cancelled" soon and the graph is freed when the
 * last one returns. Copy what a returned string says before that graph is closed.
 */
#ifndef GROVE_H
#define GROVE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#  ifdef GROVE_BUILDING_LIBRARY
#    define GROVE_API __declspec(dllexport)
#  else
#    define GROVE_API __declspec(dllimport)
#  endif
#else
#  define GROVE_API __attribute__((visibility("default")))
#endif

typedef struct grove_graph grove_graph;

/* One point: 64 bytes, no padding, the same layout on every 64-bit platform (see the README's
 * C# and GDExtension snippets). Grove's plane: x right, y down, rotation in degrees clockwise. */
typedef struct grove_point {
    double x, y;
    double z;        /* height (place_layer's height input x height_scale); 0 without one */
    double r;        /* the point's radius: no other point of the layer is closer than min(r_a, r_b) */
    double rotation; /* degrees, clockwise */
    double scale;
    uint64_t id;     /* the export's id: unique in the layer, below 2^53 (exact as a double) */
    int32_t type;    /* index into the layer's types (grove_layer_type_name), always >= 0 */
    int32_t reserved; /* 0 */
} grove_point;

typedef struct grove_world_info {
    double width, height; /* 0 for an endless world */
    double chunk;         /* side of a chunk; 0 when the world has no chunks */
    int32_t endless;      /* 1: no edge; regions must stay within the chunk range */
    int32_t seed;
} grove_world_info;

/* "0.1.0": the Grove release this library comes from. */
GROVE_API const char *grove_version(void);

/* Loads and evaluates a graph from its YAML text (`length` bytes, NUL not needed). A chunked
 * world's layers are left lazy: chunks are placed when a region asks for them. Files the graph
 * names (image, shapes, points_file paths) are resolved against the process's working folder,
 * since there is no graph file. On failure: NULL, and every problem as grove-cli prints it,
 * one per line, "NAME:LINE:COL: error: MESSAGE (at PATH)" with `name_for_messages` as NAME
 * (NULL: "graph"). */
GROVE_API grove_graph *grove_open(const char *yaml, size_t length, const char *name_for_messages, char *error,
                                  size_t error_size);
/* Options for grove_open_with: zero-initialise, then set what you need. */
typedef struct grove_options {
    long long max_points; /* 0: 20,000,000 (grove-cli's --max-points). The most points a layer placed
                             whole at open, or a region asked for later, may hold by the packing bound */
    const char *base_dir; /* NULL or "": file params resolve against the working folder */
    const char *const *sets; /* set_count overrides "NODE.PARAM=VALUE", applied in order before the graph is
                                evaluated and checked like the file's params, as grove-cli's --set */
    size_t set_count;        /* 0: none (sets may be NULL) */
} grove_options;

/* grove_open with options (NULL: the defaults). A bad override fails as grove-cli's --set does:
 * "NAME: error: --set NODE.PARAM=VALUE: PROBLEM". */
GROVE_API grove_graph *grove_open_with(const char *yaml, size_t length, const char *name_for_messages,
                                       const grove_options *options, char *error, size_t error_size);
/* The same from a file: its folder is where its file params are resolved; messages name `path`. */
GROVE_API grove_graph *grove_open_file(const char *path, char *error, size_t error_size);
/* grove_open_file with options (NULL: the defaults); base_dir must be unset (the file's folder is used). */
GROVE_API grove_graph *grove_open_file_with(const char *path, const grove_options *options, char *error,
                                            size_t error_size);
/* Frees the graph (once no call on it is running). NULL and closed handles: nothing happens. */
GROVE_API void grove_close(grove_graph *graph);

/* Exported layers, in export order (as grove-cli's JSON lists them). -1 for a bad handle. */
GROVE_API int grove_layer_count(grove_graph *graph);
/* The layer's name in exports (its name param, or its node id); NULL for a bad handle or index.
 * Valid until grove_close. */
GROVE_API const char *grove_layer_name(grove_graph *graph, int layer_index);
/* The index of the layer named `layer` (its export name or its node id), -1 when there is none. */
GROVE_API int grove_layer_index(grove_graph *graph, const char *layer);
/* The layer's types as exports list them (a layer without types has one, named after it). */
GROVE_API int grove_layer_type_count(grove_graph *graph, int layer_index);
GROVE_API const char *grove_layer_type_name(grove_graph *graph, int layer_index, int type_index);
/* 1 when the layer's points carry heights (z), 0 when not, -1 for a bad handle or index. */
GROVE_API int grove_layer_has_z(grove_graph *graph, int layer_index);
/* The layer's attributes (`attribute` nodes: a named value a point), in the order of its chain:
 * their count (-1 for a bad handle or index) and each one's name (NULL for a bad index; valid until
 * grove_close). */
GROVE_API int grove_layer_attribute_count(grove_graph *graph, int layer_index);
GROVE_API const char *grove_layer_attribute_name(grove_graph *graph, int layer_index, int attribute_index);

/* 0 on success, -1 for a bad handle or NULL out. */
GROVE_API int grove_world(grove_graph *graph, grove_world_info *out);
/* Whether the world repeats along x and along y (world.wrap: a tileable world, whose points keep
 * their spacing across each wrapped edge with the points at the opposite one): 1 or 0 in each of
 * *wrap_x and *wrap_y. 0 on success, -1 for a bad handle or a NULL out. */
GROVE_API int grove_world_wrap(grove_graph *graph, int32_t *wrap_x, int32_t *wrap_y);
/* The side of a chunk (world.chunk); 0 when the world has no chunks, -1 for a bad handle. */
GROVE_API double grove_chunk_size(grove_graph *graph);

/* The number of the layer's points with x0 <= x < x1 and y0 <= y < y1. With `out` NULL only the
 * count; otherwise the points are written to out[0..count) in export order (chunk rows top to
 * bottom, each left to right; within a chunk, placement order) when count <= capacity, and a
 * count above capacity is an error that states both. -1 and a message on any error: a bad handle,
 * an unknown layer, a NaN or inverted region (x1 < x0 or y1 < y0; an empty one gives 0), a
 * negative capacity, an endless world's region beyond the chunk range (32768 chunks from the
 * origin), a region that could hold more points than the limit (grove_set_max_points),
 * cancellation. A finite world's region is clipped to the world: outside it there are 0 points.
 * The same region gives the same bytes on any thread, in any order of calls. */
GROVE_API long long grove_points_in_region(grove_graph *graph, const char *layer, double x0, double y0, double x1,
                                           double y1, grove_point *out, long long capacity, char *error,
                                           size_t error_size);
/* Attribute `attribute_index` of the points grove_points_in_region gives for the same layer and
 * region: the same count, the same errors (and -1 for a bad attribute index), the values written to
 * out[0..count) in the same order. */
GROVE_API long long grove_attribute_in_region(grove_graph *graph, const char *layer, int attribute_index, double x0,
                                              double y0, double x1, double y1, double *out, long long capacity,
                                              char *error, size_t error_size);
/* The points of chunk (i, j): the region [i c, (i + 1) c) x [j c, (j + 1) c), c = grove_chunk_size.
 * An error for a world without chunks. */
GROVE_API long long grove_points_in_chunk(grove_graph *graph, const char *layer, int i, int j, grove_point *out,
                                          long long capacity, char *error, size_t error_size);

/* Cancels: every call on the graph that is running or starts later returns -1 "cancelled" until
 * grove_resume. 0, or -1 for a bad handle. */
GROVE_API int grove_cancel(grove_graph *graph);
GROVE_API int grove_resume(grove_graph *graph);

/* What a graph is doing, for a debug overlay, a progress bar or a test: the calls inside
 * grove_points_in_region or grove_points_in_chunk now (from any thread), and the pieces of work
 * those calls finished since grove_open (a lazy layer's region is placed 16 chunks a piece; any
 * other region is one piece). */
typedef struct grove_activity {
    int calls_running;
    long long pieces_done;
} grove_activity;
/* Fills *out: 0, or -1 for a bad handle or a NULL out. */
GROVE_API int grove_get_activity(grove_graph *graph, grove_activity *out);

/* Threads one region call may use for its chunks (0: every core). Default 1: an engine asks from
 * its own threads. 0, or -1 for a bad handle or a negative count. */
GROVE_API int grove_set_threads(grove_graph *graph, int threads);
/* The most points a region may hold by the packing bound at the layer's radius, checked before
 * anything is placed (default 20,000,000, as grove-cli's --max-points). 0, or -1 when bad. */
GROVE_API int grove_set_max_points(grove_graph *graph, long long max_points);
/* Bytes of placed chunks each lazy layer keeps (default 256 MiB a layer). 0, or -1 when bad. */
GROVE_API int grove_set_cache_bytes(grove_graph *graph, size_t bytes);

/* ---- Streaming sessions: the chunks around moving sources, computed on Grove's threads ----
 *
 * A session streams layers of a chunked world (world.chunk; endless or finite) around sources
 * (a player, a camera): each grove_session_update says where the sources are; Grove wants every
 * chunk whose square meets a source's disc, queues the missing ones nearest first, places them on
 * the session's worker threads (the graph's chunk cache is shared with its other calls), and
 * drops queued, computing or undelivered work that left every disc. The update never waits for
 * that work: it hands over the chunks that are ready (within its time budget) and lists the
 * delivered chunks to unload. A chunk inside a disc is delivered exactly once, then stays
 * resident (never delivered again) until it lies farther than radius + unload_margin from every
 * source; then it is listed once to unload, and delivered again if a source comes back.
 * A delivered chunk's points are grove_points_in_chunk's for the same chunk, bit for bit.
 *
 * Threads: one session is used from one thread at a time (update, wait, stats; close from any
 * thread once no other call on the session runs). A graph may have several sessions, each with its
 * own workers; they share its chunk cache. grove_cancel and grove_resume do not reach sessions.
 * grove_close(graph) with sessions open: the sessions keep what they need of the graph, stop their
 * work, and their updates fail with "the session's graph was closed"; close them as usual.
 * Handles are numbers like graphs': a closed session is an error, never a crash. */
typedef struct grove_session grove_session;

/* Zero-initialise, then set what you need; 0 is the default of every field. */
typedef struct grove_session_options {
    int workers;             /* worker threads, 1 to 256; 0: the cores less one, 1 to 8 */
    int max_chunks;          /* the most chunk squares the sources may want at once, 1 to 1,048,576;
                                0: 16,384. More is an error of the update, nothing is queued */
    long long memory_cap;    /* bytes of points ready but undelivered plus those of the last update's
                                batch; workers start no chunk while they reach it. 0: 64 MiB */
    double unload_margin;    /* a delivered chunk unloads once farther than radius + margin from every
                                source (hysteresis); 0: half a chunk */
} grove_session_options;

/* A source: the chunks meeting the disc of `radius` around (x, y) are wanted. */
typedef struct grove_source {
    double x, y, radius;
} grove_source;

/* A chunk handed over: its points (export order; NULL when count is 0) stay valid until the next
 * grove_session_update or grove_session_close on the session; copy what you keep. */
typedef struct grove_session_chunk {
    int layer;        /* the graph's layer index (grove_layer_name) */
    int i, j;         /* the chunk: [i c, (i + 1) c) x [j c, (j + 1) c) */
    const grove_point *points;
    long long count;
} grove_session_chunk;

typedef struct grove_chunk_ref {
    int layer, i, j;
} grove_chunk_ref;

/* What an update gives: arrays owned by the session, valid until its next update or close. */
typedef struct grove_update_result {
    const grove_session_chunk *ready; /* chunks to load, nearest a source first */
    int ready_count;
    const grove_chunk_ref *unload;    /* delivered chunks now beyond every radius + margin */
    int unload_count;
    int pending;                      /* wanted chunks not delivered yet (queued, computing, ready) */
} grove_update_result;

/* Counters for a debug overlay: states now, totals since open. */
typedef struct grove_session_stats {
    int queued, computing, ready, resident; /* chunks (one per layer) in each state now */
    long long delivered, evicted, cancelled; /* totals: handed over, listed to unload, dropped before delivery
                                                (a chunk that failed is not cancelled: the next update tells it) */
    long long update_us, worker_us;          /* totals: microseconds inside grove_session_update, on workers */
    long long bytes_held;                    /* points ready plus the last batch handed over */
    long long memory_cap;                    /* the cap in effect */
} grove_session_stats;

/* Opens a session streaming `layers` (layer_count names, export names or node ids) of `graph`.
 * NULL with a message for a world without chunks, an unknown or repeated layer, bad options. */
GROVE_API grove_session *grove_session_open(grove_graph *graph, const char *const *layers, int layer_count,
                                            const grove_session_options *opts, char *error, size_t error_size);
/* Sets the sources (source_count of them; 0 unloads everything) and hands over what is ready,
 * spending at most about `budget_us` microseconds moving chunks (0: every ready chunk; at least one
 * is handed over when any is ready). When the sources moved it also updates the wants, work in
 * proportion to the chunks wanted (the budget does not cover it). Frees the previous update's
 * batch. 0 and *out filled, or -1 (grove_last_error) for a bad argument (NULL, more than 4096
 * sources, a NaN or infinite position, a negative or NaN radius, a negative budget, more chunks
 * wanted than max_chunks: nothing changes, the previous batch stays valid), a chunk that failed
 * (once; the next update wants it again) or a closed graph. */
GROVE_API int grove_session_update(grove_session *session, const grove_source *sources, int source_count,
                                   long long budget_us, grove_update_result *out);
/* Blocks until a chunk is ready to hand over, nothing is left to compute, the memory cap stops the
 * workers (update to free the last batch) or `timeout_us` passed. The chunks ready now (>= 0), or -1. */
GROVE_API int grove_session_wait(grove_session *session, long long timeout_us);
/* Fills *out: 0, or -1 for a bad session or a NULL out. */
GROVE_API int grove_session_get_stats(grove_session *session, grove_session_stats *out);
/* Cancels the session's work, joins its workers (a chunk being placed stops at its next cancel
 * check) and frees it with its last batch. NULL and closed sessions: nothing happens. */
GROVE_API void grove_session_close(grove_session *session);

/* The message of the calling thread's last failed call ("" when none failed yet). */
GROVE_API const char *grove_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* GROVE_H */
