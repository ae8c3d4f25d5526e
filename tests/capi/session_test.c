/* libgrove's streaming sessions from C: a source walking and driving across an endless world for
 * thousands of small-budget updates, every chunk inside the radius delivered exactly once before it
 * unloads, unloads only past radius + margin, no flapping on a border, the points equal to
 * grove_points_in_chunk on another handle and to grove-cli's CSV export, the memory cap held, a
 * finite world's chunks clipped, closing with work in flight, a failed chunk told (not cancelled),
 * and every bad call's message.
 * Usage: session_test CAPI_DIR GROVE_CLI (tests/capi with its graphs, grove-cli to compare with). */
#define _POSIX_C_SOURCE 200809L
#include "grove.h"

#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static const char *g_dir, *g_cli;
static const double kChunk = 128; /* endless.grove.yaml's world.chunk */
static const long long kChunkBytes = 128 * 1024; /* more than any chunk of endless.grove.yaml holds */
static const long long kWait = 120000000; /* a wait's safety bound: 2 minutes; never reached when all is well */

static grove_graph *open_graph(const char *file)
{
    char path[4096], error[4096];
    snprintf(path, sizeof path, "%s/%s", g_dir, file);
    grove_graph *g = grove_open_file(path, error, sizeof error);
    if (!g) {
        fprintf(stderr, "grove_open_file(%s) failed: %s\n", path, error);
        exit(2);
    }
    return g;
}

static int contains(const char *text, const char *part)
{
    return strstr(text, part) != NULL;
}

static double to_square(double x, double y, int i, int j)
{
    double dx = fmax(fmax(i * kChunk - x, 0), x - (i + 1) * kChunk);
    double dy = fmax(fmax(j * kChunk - y, 0), y - (j + 1) * kChunk);
    return hypot(dx, dy);
}

/* ---- what the test has been given: chunks by (layer, i, j) in an open-addressing table ---- */
enum { kSlots = 1 << 17 };
typedef struct seen {
    int used, layer, i, j;
    int resident;   /* delivered and not unloaded since */
    int deliveries; /* in all */
    grove_point *kept; /* a copy, for chunks of the CSV area */
    long long kept_count;
} seen;
static seen g_seen[kSlots];

static seen *find_seen(int layer, int i, int j)
{
    unsigned h = ((unsigned)layer * 73856093u) ^ ((unsigned)i * 19349663u) ^ ((unsigned)j * 83492791u);
    for (unsigned k = h & (kSlots - 1);; k = (k + 1) & (kSlots - 1)) {
        seen *s = &g_seen[k];
        if (!s->used) {
            s->used = 1;
            s->layer = layer;
            s->i = i;
            s->j = j;
            return s;
        }
        if (s->layer == layer && s->i == i && s->j == j)
            return s;
    }
}

static void forget_all(void)
{
    for (int k = 0; k < kSlots; ++k)
        free(g_seen[k].kept);
    memset(g_seen, 0, sizeof g_seen);
}

/* One run's bookkeeping: the session, the reference handle and what is checked on every update. */
typedef struct run {
    grove_session *session;
    grove_graph *reference; /* another handle on the same graph: grove_points_in_chunk */
    grove_source source;
    double margin;
    long long cap;
    int workers;
    long long largest_chunk_bytes;
    long long delivered, unloaded, compared, mismatched;
    int keep_i0, keep_i1, keep_j0, keep_j1; /* the CSV area's chunks, copied when delivered */
} run;

/* The reference points of a chunk equal the delivered ones, bit for bit. */
static int same_as_reference(run *r, const grove_session_chunk *c)
{
    const char *name = grove_layer_name(r->reference, c->layer);
    long long n = grove_points_in_chunk(r->reference, name, c->i, c->j, NULL, 0, NULL, 0);
    if (n != c->count)
        return 0;
    grove_point *want = malloc(sizeof(grove_point) * (size_t)(n > 0 ? n : 1));
    int same = grove_points_in_chunk(r->reference, name, c->i, c->j, want, n, NULL, 0) == n &&
               (n == 0 || !memcmp(want, c->points, sizeof(grove_point) * (size_t)n));
    free(want);
    return same;
}

/* One update with the run's source; every chunk delivered and unloaded checked. The update's result. */
static grove_update_result step(run *r, long long budget_us, int compare)
{
    grove_update_result u;
    memset(&u, 0, sizeof u);
    int rc = grove_session_update(r->session, &r->source, 1, budget_us, &u);
    CHECK(rc == 0, "update: %s", grove_last_error());
    if (rc != 0)
        return u;
    const grove_source *s = &r->source;
    for (int k = 0; k < u.ready_count; ++k) {
        const grove_session_chunk *c = &u.ready[k];
        seen *e = find_seen(c->layer, c->i, c->j);
        CHECK(!e->resident, "chunk (%d, %d) of layer %d delivered twice while resident", c->i, c->j, c->layer);
        CHECK(to_square(s->x, s->y, c->i, c->j) <= s->radius, "chunk (%d, %d) delivered outside the radius", c->i, c->j);
        CHECK((c->count == 0) == (c->points == NULL), "points NULL exactly when the count is 0");
        e->resident = 1;
        ++e->deliveries;
        ++r->delivered;
        long long bytes = c->count * (long long)sizeof(grove_point);
        if (bytes > r->largest_chunk_bytes)
            r->largest_chunk_bytes = bytes;
        if (compare) {
            ++r->compared;
            r->mismatched += !same_as_reference(r, c);
        }
        if (c->i >= r->keep_i0 && c->i < r->keep_i1 && c->j >= r->keep_j0 && c->j < r->keep_j1) {
            free(e->kept);
            e->kept = malloc((size_t)bytes + 1);
            memcpy(e->kept, c->points ? (const void *)c->points : "", (size_t)bytes);
            e->kept_count = c->count;
        }
    }
    for (int k = 0; k < u.unload_count; ++k) {
        const grove_chunk_ref *c = &u.unload[k];
        seen *e = find_seen(c->layer, c->i, c->j);
        CHECK(e->resident, "chunk (%d, %d) of layer %d unloaded without being delivered", c->i, c->j, c->layer);
        CHECK(to_square(s->x, s->y, c->i, c->j) > s->radius + r->margin,
              "chunk (%d, %d) unloaded within radius + margin (%.17g from the source)", c->i, c->j,
              to_square(s->x, s->y, c->i, c->j));
        e->resident = 0;
        ++r->unloaded;
    }
    grove_session_stats st;
    CHECK(grove_session_get_stats(r->session, &st) == 0, "stats");
    CHECK(st.bytes_held <= r->cap + r->workers * kChunkBytes,
          "bytes held %lld stay within the cap %lld plus a chunk a worker", st.bytes_held, r->cap);
    CHECK(st.memory_cap == r->cap, "the cap in effect: %lld", st.memory_cap);
    return u;
}

/* Updates (waiting for the workers in between) until nothing is pending; then every chunk meeting the
 * disc is resident in every layer. The updates it took, -1 when it never settled. */
static int settle(run *r, int layers, int compare)
{
    for (int n = 0; n < 100000; ++n) {
        grove_update_result u = step(r, 200, compare);
        if (u.pending == 0 && u.ready_count == 0) {
            const grove_source *s = &r->source;
            int i0 = (int)floor((s->x - s->radius) / kChunk), i1 = (int)floor((s->x + s->radius) / kChunk);
            int j0 = (int)floor((s->y - s->radius) / kChunk), j1 = (int)floor((s->y + s->radius) / kChunk);
            int missing = 0;
            for (int j = j0; j <= j1; ++j)
                for (int i = i0; i <= i1; ++i)
                    for (int l = 0; l < layers; ++l)
                        if (to_square(s->x, s->y, i, j) <= s->radius && !find_seen(l, i, j)->resident)
                            ++missing;
            CHECK(missing == 0, "settled at (%g, %g): %d chunks in the radius not delivered", s->x, s->y, missing);
            return n;
        }
        if (grove_session_wait(r->session, kWait) < 0)
            CHECK(0, "wait: %s", grove_last_error());
    }
    CHECK(0, "the session never settled at (%g, %g)", r->source.x, r->source.y);
    return -1;
}

/* grove-cli's CSV of the area: the same points, in the same order, as the delivered chunks there. */
static void compare_with_cli(run *r, const char *graph, const char *const *layers, int layer_count)
{
    char command[8192];
    double x0 = r->keep_i0 * kChunk, y0 = r->keep_j0 * kChunk, x1 = r->keep_i1 * kChunk, y1 = r->keep_j1 * kChunk;
    snprintf(command, sizeof command, "'%s' eval '%s/%s' --region %g,%g,%g,%g --format csv --threads 1 --quiet", g_cli,
             g_dir, graph, x0, y0, x1, y1);
    FILE *p = popen(command, "r");
    CHECK(p != NULL, "popen %s", command);
    if (!p)
        return;
    static char line[4096];
    CHECK(fgets(line, sizeof line, p) && !strncmp(line, "layer,id,x,y,r,type,rot,scale", 29), "the CSV head: %s", line);
    long long rows = 0, wrong = 0;
    int l = 0, i = r->keep_i0, j = r->keep_j0;
    long long k = 0;
    while (fgets(line, sizeof line, p)) {
        /* the next delivered point in export order: layers in order, chunk rows top to bottom, each left to right */
        seen *e = find_seen(l, i, j);
        while (l < layer_count && k >= e->kept_count) {
            k = 0;
            if (++i == r->keep_i1) {
                i = r->keep_i0;
                if (++j == r->keep_j1) {
                    j = r->keep_j0;
                    ++l;
                }
            }
            e = find_seen(l, i, j);
        }
        ++rows;
        if (l >= layer_count) {
            ++wrong;
            continue;
        }
        const grove_point *q = &e->kept[k++];
        char *f[10] = {0};
        int nf = 0;
        for (char *c = line, *start = line; nf < 10; ++c)
            if (*c == ',' || *c == '\n' || *c == '\0') {
                int end = *c == '\0' || *c == '\n';
                *c = '\0';
                f[nf++] = start;
                start = c + 1;
                if (end)
                    break;
            }
        const char *type = grove_layer_type_name(r->reference, l, q->type);
        int same = nf >= 8 && !strcmp(f[0], layers[l]) && strtoull(f[1], NULL, 10) == q->id && strtod(f[2], NULL) == q->x &&
                   strtod(f[3], NULL) == q->y && strtod(f[4], NULL) == q->r && type && !strcmp(f[5], type) &&
                   strtod(f[6], NULL) == q->rotation && strtod(f[7], NULL) == q->scale &&
                   (nf < 9 || !*f[8] ? q->z == 0 : strtod(f[8], NULL) == q->z);
        if (!same && wrong < 3)
            fprintf(stderr, "  CSV row %lld differs from chunk (%d, %d) point %lld (id %llu)\n", rows, i, j, k - 1,
                    (unsigned long long)q->id);
        wrong += !same;
    }
    CHECK(pclose(p) == 0, "grove-cli exits 0: %s", command);
    long long delivered = 0;
    for (int ll = 0; ll < layer_count; ++ll)
        for (int jj = r->keep_j0; jj < r->keep_j1; ++jj)
            for (int ii = r->keep_i0; ii < r->keep_i1; ++ii)
                delivered += find_seen(ll, ii, jj)->kept_count;
    CHECK(rows > 1000 && rows == delivered && wrong == 0, "grove-cli's %lld rows equal the %lld delivered points (%lld differ)",
          rows, delivered, wrong);
}

/* A source walking, then driving, across the endless world with a small budget. */
static void check_streaming(void)
{
    grove_graph *g = open_graph("endless.grove.yaml");
    run r;
    memset(&r, 0, sizeof r);
    r.reference = open_graph("endless.grove.yaml");
    r.margin = 40;
    r.cap = 512 * 1024;
    r.workers = 2;
    r.keep_i0 = -2, r.keep_i1 = 2, r.keep_j0 = -2, r.keep_j1 = 2;
    const char *layers[] = {"rocks", "trees"};
    grove_session_options o;
    memset(&o, 0, sizeof o);
    o.workers = r.workers;
    o.memory_cap = r.cap;
    o.unload_margin = r.margin;
    char error[1024];
    r.session = grove_session_open(g, layers, 2, &o, error, sizeof error);
    CHECK(r.session != NULL && error[0] == '\0', "open: %s", error);
    if (!r.session)
        exit(1);

    /* standing at the origin: the CSV area's 16 chunks are all in the radius */
    r.source = (grove_source){0.5, -0.25, 384};
    settle(&r, 2, 1);
    compare_with_cli(&r, "endless.grove.yaml", layers, 2);

    /* on a chunk border, a unit either side: chunk 4's square is 383 from x = 129 (in the radius), 385
     * from x = 127 (out of it, within the margin). Once both sides settled, nothing flaps. */
    for (int side = 0; side < 2; ++side) {
        r.source.x = side ? 129 : 127;
        settle(&r, 2, 0);
    }
    long long delivered = r.delivered, unloaded = r.unloaded;
    for (int n = 0; n < 800; ++n) {
        r.source.x = (n & 1) ? 129 : 127;
        step(&r, 200, 0);
        grove_session_wait(r.session, kWait);
    }
    CHECK(find_seen(1, 4, -1)->resident, "chunk (4, -1), in the radius from one side only, is resident");
    CHECK(r.delivered == delivered && r.unloaded == unloaded,
          "a source on a border does not make chunks flap: %lld delivered, %lld unloaded after settling",
          r.delivered - delivered, r.unloaded - unloaded);

    /* walking: 1.5 units a frame along a curve, the workers given a chance every frame */
    grove_session_stats st;
    for (int n = 0; n < 3000; ++n) {
        r.source.x = 128 + 1.5 * n;
        r.source.y = 200 * sin(n / 400.0);
        step(&r, 200, n % 4 == 0);
        grove_session_wait(r.session, kWait);
        if (n % 1000 == 999)
            settle(&r, 2, 0);
    }
    grove_session_get_stats(r.session, &st);
    CHECK(r.unloaded > 20 && r.delivered > 100, "walking delivers and unloads: %lld, %lld", r.delivered, r.unloaded);

    /* driving: 40 units a frame for thousands of frames, the workers busy: chunks passed are cancelled */
    long long cancelledBefore = st.cancelled;
    double x = r.source.x;
    for (int n = 0; n < 4000; ++n) {
        r.source.x = x + 40.0 * n;
        r.source.y = -300 + 3000 * sin(n / 900.0);
        step(&r, 100, n % 50 == 0);
        if (n % 8 == 0)
            grove_session_wait(r.session, kWait);
        if (n % 1000 == 999)
            settle(&r, 2, 0);
    }
    grove_session_get_stats(r.session, &st);
    CHECK(st.cancelled > cancelledBefore, "driving past chunks cancels them: %lld", st.cancelled - cancelledBefore);
    CHECK(st.delivered == r.delivered && st.evicted == r.unloaded, "the stats count what the updates gave: %lld/%lld, %lld/%lld",
          st.delivered, r.delivered, st.evicted, r.unloaded);
    CHECK(r.compared > 200 && r.mismatched == 0, "%lld of %lld delivered chunks differ from grove_points_in_chunk",
          r.mismatched, r.compared);
    CHECK(st.update_us > 0 && st.worker_us > 0, "time is counted: %lld, %lld", st.update_us, st.worker_us);

    /* no sources: everything resident unloads */
    grove_update_result u;
    CHECK(grove_session_update(r.session, NULL, 0, 0, &u) == 0 && u.unload_count == st.resident && u.pending == 0,
          "no sources unload all %d resident chunks: %d", st.resident, u.unload_count);
    grove_session_get_stats(r.session, &st);
    CHECK(st.resident == 0 && st.queued == 0 && st.ready == 0, "an empty session");
    fprintf(stderr, "streamed: %lld delivered, %lld unloaded, %lld cancelled, %lld compared; update %lld us, workers %lld us\n",
            r.delivered, r.unloaded, st.cancelled, r.compared, st.update_us, st.worker_us);
    grove_session_close(r.session);
    grove_close(g);
    grove_close(r.reference);
    forget_all();
}

/* A finite world streams only its own chunks, whatever the radius. */
static void check_finite(void)
{
    grove_graph *g = open_graph("finite.grove.yaml");
    const char *layers[] = {"trees"};
    grove_session *s = grove_session_open(g, layers, 1, NULL, NULL, 0);
    grove_source src = {350, 250, 1e6};
    int delivered = 0, outside = 0;
    for (int n = 0; n < 100000; ++n) {
        grove_update_result u;
        CHECK(grove_session_update(s, &src, 1, 0, &u) == 0, "finite update: %s", grove_last_error());
        delivered += u.ready_count;
        for (int k = 0; k < u.ready_count; ++k)
            outside += u.ready[k].i < 0 || u.ready[k].i >= 6 || u.ready[k].j < 0 || u.ready[k].j >= 4;
        if (u.pending == 0)
            break;
        grove_session_wait(s, kWait);
    }
    CHECK(delivered == 24 && outside == 0, "a 700 x 500 world's 6 x 4 chunks, each once: %d, %d outside", delivered, outside);
    grove_session_close(s);
    grove_close(g);
}

/* Several sources: the union of their discs' chunks, each chunk once, at the nearest source's turn. */
static void check_sources(void)
{
    grove_graph *g = open_graph("finite.grove.yaml");
    const char *layers[] = {"trees"};
    grove_session_options o;
    memset(&o, 0, sizeof o);
    o.max_chunks = 6; /* the union's count: a chunk two discs meet counts once */
    grove_session *s = grove_session_open(g, layers, 1, &o, NULL, 0);
    grove_source src[3] = {{100, 100, 50}, {600, 400, 30}, {150, 110, 60}};
    int got[6][4] = {{0}}, twice = 0, expected = 0, missing = 0;
    for (int n = 0; n < 100000; ++n) {
        grove_update_result u;
        CHECK(grove_session_update(s, src, 3, 0, &u) == 0, "update: %s", grove_last_error());
        for (int k = 0; k < u.ready_count; ++k)
            if (u.ready[k].i >= 0 && u.ready[k].i < 6 && u.ready[k].j >= 0 && u.ready[k].j < 4)
                twice += got[u.ready[k].i][u.ready[k].j]++ > 0;
        if (u.pending == 0)
            break;
        grove_session_wait(s, kWait);
    }
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 4; ++j) {
            int wanted = 0;
            for (int k = 0; k < 3; ++k)
                wanted |= to_square(src[k].x, src[k].y, i, j) <= src[k].radius;
            expected += wanted;
            missing += wanted != got[i][j];
        }
    CHECK(expected == 6 && missing == 0 && twice == 0, "three sources want %d chunks: %d wrong, %d twice", expected, missing, twice);
    grove_session_close(s);
    grove_close(g);
}

/* The memory cap stops the workers while the caller does not update: the points held stay under it
 * (plus a chunk a worker), work stays queued, and an update hands the ready chunks over. */
static void check_cap(void)
{
    grove_graph *g = open_graph("endless.grove.yaml");
    const char *layers[] = {"trees"};
    grove_session_options o;
    memset(&o, 0, sizeof o);
    o.workers = 2;
    o.memory_cap = 256 * 1024;
    grove_session *s = grove_session_open(g, layers, 1, &o, NULL, 0);
    grove_source src = {-3000, 700, 1500};
    grove_update_result u;
    CHECK(grove_session_update(s, &src, 1, 0, &u) == 0 && u.pending > 300, "many chunks wanted: %d", u.pending);
    grove_session_stats st = {0};
    for (long n = 0; n < 100000000 && !(st.bytes_held >= o.memory_cap && st.computing == 0); ++n) {
        grove_session_get_stats(s, &st);
        sched_yield();
    }
    CHECK(st.bytes_held >= o.memory_cap && st.bytes_held <= o.memory_cap + o.workers * kChunkBytes && st.queued > 200,
          "the cap stops the workers: %lld bytes held, %d queued", st.bytes_held, st.queued);
    CHECK(grove_session_wait(s, kWait) == st.ready, "wait returns at the cap with the ready chunks");
    int ready = st.ready;
    CHECK(grove_session_update(s, &src, 1, 0, &u) == 0 && u.ready_count == ready, "the update hands over all %d", ready);
    grove_session_get_stats(s, &st);
    CHECK(st.bytes_held <= o.memory_cap + o.workers * kChunkBytes, "the batch handed over is held: %lld", st.bytes_held);
    grove_session_close(s);
    grove_close(g);
}

/* Closing a session with chunks being computed returns (it joins its workers); closing the graph
 * first makes the session's updates fail, and its close still works. */
static void check_close(void)
{
    grove_graph *g = open_graph("endless.grove.yaml");
    const char *layers[] = {"trees", "rocks"};
    grove_session_options o;
    memset(&o, 0, sizeof o);
    o.workers = 2;
    for (int round = 0; round < 2; ++round) {
        grove_session *s = grove_session_open(g, layers, 2, &o, NULL, 0);
        grove_source src = {5000, 5000, 2000};
        grove_update_result u;
        CHECK(grove_session_update(s, &src, 1, 0, &u) == 0 && u.pending > 500, "many chunks wanted: %d", u.pending);
        grove_session_stats st = {0};
        for (long n = 0; n < 100000000 && st.computing == 0; ++n) {
            grove_session_get_stats(s, &st);
            sched_yield();
        }
        CHECK(st.computing > 0 && st.queued > 0, "work in flight: %d computing, %d queued", st.computing, st.queued);
        if (round == 1) {
            grove_close(g);
            CHECK(grove_session_update(s, &src, 1, 0, &u) == -1 && contains(grove_last_error(), "graph was closed"),
                  "the graph closed: '%s'", grove_last_error());
        }
        grove_session_close(s);
        CHECK(grove_session_update(s, &src, 1, 0, &u) == -1 && contains(grove_last_error(), "not an open session"),
              "a closed session: '%s'", grove_last_error());
        grove_session_close(s); /* twice: nothing happens */
    }
}

/* A chunk that fails (more points than grove_set_max_points allows) is told by the next update and
 * wanted again by the one after; a failure is not counted as cancelled. */
static void check_failure(void)
{
    grove_graph *g = open_graph("endless.grove.yaml");
    const char *trees[] = {"trees"};
    grove_session_options o;
    memset(&o, 0, sizeof o);
    o.workers = 1;
    grove_session *s = grove_session_open(g, trees, 1, &o, NULL, 0);
    CHECK(s && grove_set_max_points(g, 1) == 0, "a session on a graph allowing 1 point");
    grove_source src = {64, 64, 10}; /* chunk (0, 0) only */
    grove_update_result u;
    grove_session_stats st;
    for (int round = 0; round < 2; ++round) {
        CHECK(grove_session_update(s, &src, 1, 0, &u) == 0 && u.pending == 1, "round %d: chunk (0, 0) wanted", round);
        grove_session_wait(s, kWait);
        CHECK(grove_session_update(s, &src, 1, 0, &u) == -1 && contains(grove_last_error(), "layer 'trees', chunk (0, 0): ") &&
                  contains(grove_last_error(), "grove_set_max_points"),
              "round %d: the failure told: '%s'", round, grove_last_error());
        CHECK(grove_session_get_stats(s, &st) == 0 && st.cancelled == 0 && st.queued + st.computing + st.ready == 0,
              "round %d: the failed chunk is not cancelled: %lld cancelled", round, st.cancelled);
    }
    grove_session_close(s);
    grove_close(g);
}

/* Every bad call: -1 or NULL with its message, nothing changed. */
static void check_errors(void)
{
    char error[1024];
    grove_graph *g = open_graph("endless.grove.yaml"), *whole = open_graph("whole.grove.yaml");
    const char *trees[] = {"trees"}, *twice[] = {"trees", "trees"}, *typo[] = {"tress"}, *none[] = {NULL};
    CHECK(!grove_session_open(NULL, trees, 1, NULL, error, sizeof error) && !strcmp(error, "the graph is NULL"), "%s", error);
    CHECK(!grove_session_open(whole, trees, 1, NULL, error, sizeof error) && contains(error, "no chunks (world.chunk)"), "%s",
          error);
    CHECK(!grove_session_open(g, typo, 1, NULL, error, sizeof error) &&
              contains(error, "layers[0]: no exported layer 'tress'") && contains(error, "did you mean 'trees'"),
          "%s", error);
    CHECK(!grove_session_open(g, twice, 2, NULL, error, sizeof error) && contains(error, "layers[1]: layer 'trees' is listed twice"),
          "%s", error);
    CHECK(!grove_session_open(g, none, 1, NULL, error, sizeof error) && !strcmp(error, "layers[0] is NULL"), "%s", error);
    CHECK(!grove_session_open(g, NULL, 1, NULL, error, sizeof error) && contains(error, "layers is NULL"), "%s", error);
    CHECK(!grove_session_open(g, trees, 0, NULL, error, sizeof error) && contains(error, "layer_count must be at least 1"), "%s",
          error);
    CHECK(!strcmp(grove_last_error(), error), "grove_last_error has the message: '%s'", grove_last_error());
    grove_session_options o;
    memset(&o, 0, sizeof o);
    o.workers = -1;
    CHECK(!grove_session_open(g, trees, 1, &o, error, sizeof error) && contains(error, "workers must be"), "%s", error);
    o.workers = 0;
    o.max_chunks = 1 << 30;
    CHECK(!grove_session_open(g, trees, 1, &o, error, sizeof error) && contains(error, "max_chunks must be"), "%s", error);
    o.max_chunks = 0;
    o.memory_cap = -5;
    CHECK(!grove_session_open(g, trees, 1, &o, error, sizeof error) && contains(error, "memory_cap is negative (-5)"), "%s", error);
    o.memory_cap = 0;
    o.unload_margin = NAN;
    CHECK(!grove_session_open(g, trees, 1, &o, error, sizeof error) && contains(error, "unload_margin must be a finite number >= 0, got NaN"), "%s", error);
    o.unload_margin = 0;
    o.workers = 1;
    grove_session *s = grove_session_open(g, trees, 1, &o, error, sizeof error);
    CHECK(s != NULL, "open: %s", error);

    grove_update_result u = {0};
    grove_source src = {0, 0, 100};
    for (int n = 0; n < 100000 && u.ready_count == 0; ++n) {
        CHECK(grove_session_update(s, &src, 1, 0, &u) == 0, "a good update");
        if (u.ready_count == 0)
            grove_session_wait(s, kWait);
    }
    CHECK(u.ready_count > 0 && u.ready[0].count > 0, "a chunk handed over");
    const grove_point *kept = u.ready[0].points;
    const grove_point first = kept[0];
    struct {
        grove_source source;
        int count;
        long long budget;
        const char *message;
    } bad[] = {
        {{NAN, 0, 10}, 1, 0, "source 0 is at (NaN, 0): positions must be finite"},
        {{0, INFINITY, 10}, 1, 0, "source 0 is at (0, inf)"},
        {{0, 0, -1}, 1, 0, "source 0 has radius -1: radii must be finite numbers >= 0"},
        {{0, 0, NAN}, 1, 0, "has radius NaN"},
        {{0, 0, INFINITY}, 1, 0, "has radius inf"},
        {{0, 0, 1e12}, 1, 0, "more than max_chunks 16384 (grove_session_options)"},
        {{0, 0, 10240}, 1, 0, "the sources want 20"},
        {{0, 0, 10}, -1, 0, "source_count must be 0 to 4096, got -1"},
        {{0, 0, 10}, 1 << 30, 0, "source_count must be 0 to 4096, got 1073741824"},
        {{0, 0, 10}, 1, -1, "budget_us is negative (-1)"},
    };
    for (size_t k = 0; k < 2 * (sizeof bad / sizeof bad[0]); ++k) { /* each twice: a refused source is not kept */
        grove_update_result v = u;
        size_t b = k / 2;
        CHECK(grove_session_update(s, &bad[b].source, bad[b].count, bad[b].budget, &v) == -1 &&
                  contains(grove_last_error(), bad[b].message),
              "bad update %zu: '%s', want '%s'", b, grove_last_error(), bad[b].message);
    }
    CHECK(u.ready[0].points == kept && !memcmp(&first, kept, sizeof first), "a refused update keeps the last batch");
    CHECK(grove_session_update(s, NULL, 1, 0, &u) == -1 && contains(grove_last_error(), "sources is NULL but source_count is 1"),
          "'%s'", grove_last_error());
    CHECK(grove_session_update(s, &src, 1, 0, NULL) == -1 && !strcmp(grove_last_error(), "out is NULL"), "NULL out");
    CHECK(grove_session_update(NULL, &src, 1, 0, &u) == -1 && !strcmp(grove_last_error(), "the session is NULL"), "NULL");
    CHECK(grove_session_update((grove_session *)(size_t)12345, &src, 1, 0, &u) == -1 &&
              contains(grove_last_error(), "not an open session"),
          "a made-up session: '%s'", grove_last_error());
    CHECK(grove_session_wait(s, -1) == -1 && contains(grove_last_error(), "timeout_us is negative"), "negative wait");
    CHECK(grove_session_get_stats(s, NULL) == -1 && !strcmp(grove_last_error(), "out is NULL"), "NULL stats");
    grove_session_stats st;
    CHECK(grove_session_get_stats(s, &st) == 0 && st.memory_cap == 64ll * 1024 * 1024, "the default cap: %lld", st.memory_cap);
    grove_session_close(s);
    grove_session_close(NULL);
    grove_close(g);
    grove_close(whole);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: session_test CAPI_DIR GROVE_CLI\n");
        return 2;
    }
    g_dir = argv[1];
    g_cli = argv[2];
    check_errors();
    check_failure();
    check_finite();
    check_sources();
    check_close();
    check_cap();
    check_streaming();
    fprintf(stderr, "%d checks, %d failed\n", (int)checks, (int)failures);
    return failures ? 1 : 0;
}
