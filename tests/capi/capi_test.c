/* The C API from C: counts, regions, spacing across chunk borders, threads, stitched quadrants,
 * cancel, every error path, and every bad input of tests/bad-input with grove-cli's messages.
 * Usage: capi_test CAPI_DIR BAD_INPUT_DIR (tests/capi with its graphs, tests/bad-input). */
#define _POSIX_C_SOURCE 200809L
#include "grove.h"

#include <dirent.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static char *read_file(const char *path, size_t *length)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        if (got == 0)
            break;
        n += got;
    }
    fclose(f);
    buf = realloc(buf, n + 1);
    buf[n] = '\0';
    *length = n;
    return buf;
}

static const char *g_dir;

static grove_graph *open_graph(const char *file)
{
    char path[4096], error[4096];
    snprintf(path, sizeof path, "%s/%s", g_dir, file);
    size_t length = 0;
    char *text = read_file(path, &length);
    if (!text) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    grove_graph *g = grove_open(text, length, file, error, sizeof error);
    free(text);
    if (!g) {
        fprintf(stderr, "grove_open(%s) failed: %s\n", file, error);
        exit(2);
    }
    CHECK(error[0] == '\0', "a successful open clears the error: '%s'", error);
    return g;
}

/* The layer's points in a region, allocated; *count their number (-1 on error, message printed). */
static grove_point *points_in(grove_graph *g, const char *layer, double x0, double y0, double x1, double y1,
                              long long *count)
{
    char error[1024];
    long long n = grove_points_in_region(g, layer, x0, y0, x1, y1, NULL, 0, error, sizeof error);
    *count = n;
    if (n < 0) {
        fprintf(stderr, "points_in %s: %s\n", layer, error);
        return NULL;
    }
    grove_point *out = malloc(sizeof(grove_point) * (size_t)(n > 0 ? n : 1));
    long long written = grove_points_in_region(g, layer, x0, y0, x1, y1, out, n, error, sizeof error);
    CHECK(written == n, "the count with out NULL (%lld) equals the points written (%lld): %s", n, written, error);
    return out;
}

static int by_id(const void *a, const void *b)
{
    const grove_point *p = a, *q = b;
    return p->id < q->id ? -1 : p->id > q->id;
}

/* Every pair of points closer than the larger radius keeps min(r_a, r_b): a grid of cells keeps it
 * linear. `b` NULL: within `a`. */
static long long too_close(const grove_point *a, long long na, const grove_point *b, long long nb, double cell)
{
    long long bad = 0;
    const grove_point *other = b ? b : a;
    long long no = b ? nb : na;
    for (long long i = 0; i < na; ++i)
        for (long long k = b ? 0 : i + 1; k < no; ++k) {
            double dx = a[i].x - other[k].x, dy = a[i].y - other[k].y;
            if (fabs(dx) >= cell || fabs(dy) >= cell)
                continue;
            double m = a[i].r < other[k].r ? a[i].r : other[k].r;
            if (dx * dx + dy * dy < m * m * (1 - 1e-12)) {
                if (bad < 3)
                    fprintf(stderr, "  too close: id %llu (%.17g, %.17g, r %g) and id %llu (%.17g, %.17g, r %g)\n",
                            (unsigned long long)a[i].id, a[i].x, a[i].y, a[i].r, (unsigned long long)other[k].id,
                            other[k].x, other[k].y, other[k].r);
                ++bad;
            }
        }
    return bad;
}

static void check_region_basics(grove_graph *g, const char *layer, double x0, double y0, double x1, double y1,
                                const char *what)
{
    long long n = 0;
    grove_point *p = points_in(g, layer, x0, y0, x1, y1, &n);
    CHECK(n > 50, "%s: %s has points in the region (%lld)", what, layer, n);
    long long outside = 0, badType = 0, dup = 0;
    int types = grove_layer_type_count(g, grove_layer_index(g, layer));
    for (long long i = 0; i < n; ++i) {
        if (!(p[i].x >= x0 && p[i].x < x1 && p[i].y >= y0 && p[i].y < y1))
            ++outside;
        if (p[i].type < 0 || p[i].type >= types || p[i].reserved != 0)
            ++badType;
    }
    CHECK(outside == 0, "%s: %lld points of %s outside the region", what, outside, layer);
    CHECK(badType == 0, "%s: %lld points of %s with a type outside [0, %d)", what, badType, layer, types);
    qsort(p, (size_t)n, sizeof *p, by_id);
    for (long long i = 1; i < n; ++i)
        dup += p[i].id == p[i - 1].id;
    CHECK(dup == 0, "%s: %lld repeated ids in %s", what, dup, layer);
    CHECK(too_close(p, n, NULL, 0, 20) == 0, "%s: %s keeps min(r_a, r_b) within the layer, across chunk borders", what,
          layer);
    free(p);
}

/* Regions stitched from 4 quadrants hold the same points (ids, positions, radii) as the whole. */
static void check_quadrants(grove_graph *g, const char *layer, double x0, double y0, double x1, double y1, double mx,
                            double my)
{
    long long n = 0, total = 0, q[4];
    grove_point *whole = points_in(g, layer, x0, y0, x1, y1, &n);
    grove_point *parts[4] = {points_in(g, layer, x0, y0, mx, my, &q[0]), points_in(g, layer, mx, y0, x1, my, &q[1]),
                             points_in(g, layer, x0, my, mx, y1, &q[2]), points_in(g, layer, mx, my, x1, y1, &q[3])};
    for (int k = 0; k < 4; ++k)
        total += q[k];
    CHECK(total == n, "%s: quadrants hold %lld points, the whole region %lld", layer, total, n);
    if (total == n && n > 0) {
        grove_point *joined = malloc(sizeof(grove_point) * (size_t)n);
        long long at = 0;
        for (int k = 0; k < 4; ++k) {
            memcpy(joined + at, parts[k], sizeof(grove_point) * (size_t)q[k]);
            at += q[k];
        }
        qsort(joined, (size_t)n, sizeof *joined, by_id);
        qsort(whole, (size_t)n, sizeof *whole, by_id);
        long long differ = 0;
        for (long long i = 0; i < n; ++i)
            differ += memcmp(&joined[i], &whole[i], sizeof *whole) != 0;
        CHECK(differ == 0, "%s: %lld points differ between the quadrants and the whole region", layer, differ);
        free(joined);
    }
    for (int k = 0; k < 4; ++k)
        free(parts[k]);
    free(whole);
}

struct job
{
    grove_graph *g;
    const char *layer;
    double a[4], b[4];  /* first region, then the second */
    grove_point *first, *second;
    long long nfirst, nsecond;
};

static void *run_job(void *arg)
{
    struct job *j = arg;
    j->first = points_in(j->g, j->layer, j->a[0], j->a[1], j->a[2], j->a[3], &j->nfirst);
    j->second = points_in(j->g, j->layer, j->b[0], j->b[1], j->b[2], j->b[3], &j->nsecond);
    return NULL;
}

/* Two threads ask overlapping regions of one fresh graph in opposite orders: identical bytes for
 * each region, and the same as a third graph asked from one thread. */
static void check_threads(const char *file, const char *layer, int threads_per_call)
{
    grove_graph *g = open_graph(file), *alone = open_graph(file);
    CHECK(grove_set_threads(g, threads_per_call) == 0, "set threads");
    double r1[4] = {-300, -200, 250, 260}, r2[4] = {-100, -50, 420, 380};
    struct job a = {g, layer, {r1[0], r1[1], r1[2], r1[3]}, {r2[0], r2[1], r2[2], r2[3]}, NULL, NULL, 0, 0};
    struct job b = {g, layer, {r2[0], r2[1], r2[2], r2[3]}, {r1[0], r1[1], r1[2], r1[3]}, NULL, NULL, 0, 0};
    pthread_t ta, tb;
    pthread_create(&ta, NULL, run_job, &a);
    pthread_create(&tb, NULL, run_job, &b);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    long long n1 = 0, n2 = 0;
    grove_point *s1 = points_in(alone, layer, r1[0], r1[1], r1[2], r1[3], &n1);
    grove_point *s2 = points_in(alone, layer, r2[0], r2[1], r2[2], r2[3], &n2);
    CHECK(a.nfirst == n1 && b.nsecond == n1 && n1 > 0, "%s %s: region 1 counts %lld, %lld, alone %lld", file, layer,
          a.nfirst, b.nsecond, n1);
    CHECK(a.nsecond == n2 && b.nfirst == n2 && n2 > 0, "%s %s: region 2 counts %lld, %lld, alone %lld", file, layer,
          a.nsecond, b.nfirst, n2);
    if (a.nfirst == n1 && b.nsecond == n1)
        CHECK(!memcmp(a.first, b.second, sizeof(grove_point) * (size_t)n1) &&
                  !memcmp(a.first, s1, sizeof(grove_point) * (size_t)n1),
              "%s %s: region 1 gives the same bytes on both threads and alone", file, layer);
    if (a.nsecond == n2 && b.nfirst == n2)
        CHECK(!memcmp(a.second, b.first, sizeof(grove_point) * (size_t)n2) &&
                  !memcmp(b.first, s2, sizeof(grove_point) * (size_t)n2),
              "%s %s: region 2 gives the same bytes on both threads and alone", file, layer);
    free(a.first), free(a.second), free(b.first), free(b.second), free(s1), free(s2);
    grove_close(g);
    grove_close(alone);
}

static int contains(const char *text, const char *part)
{
    return strstr(text, part) != NULL;
}

struct cancel_job
{
    grove_graph *g;
    long long result;
    char error[512];
};

static void *run_big(void *arg)
{
    struct cancel_job *j = arg;
    /* 160 x 160 chunks of tree layer: minutes of work, cancelled long before */
    j->result = grove_points_in_region(j->g, "trees", 0, 0, 128 * 160, 128 * 160, NULL, 0, j->error, sizeof j->error);
    return NULL;
}

/* Waits, by what the graph reports and not by a clock, until a call on it has finished a piece of
   its work: that call is running, however busy the machine. */
static grove_activity await_running(grove_graph *g)
{
    grove_activity a = {0, 0};
    while (grove_get_activity(g, &a) == 0 && a.pieces_done == 0)
        sched_yield();
    return a;
}

static void check_errors(void)
{
    char error[2048];
    grove_point pts[4];
    grove_graph *g = open_graph("endless.grove.yaml");

    /* NULL and closed handles */
    CHECK(grove_points_in_region(NULL, "trees", 0, 0, 10, 10, NULL, 0, error, sizeof error) == -1, "NULL handle");
    CHECK(contains(error, "the graph is NULL"), "NULL handle message: '%s'", error);
    CHECK(!strcmp(grove_last_error(), error), "grove_last_error repeats it: '%s'", grove_last_error());
    CHECK(grove_layer_count(NULL) == -1 && grove_layer_name(NULL, 0) == NULL && grove_chunk_size(NULL) == -1 &&
              grove_cancel(NULL) == -1 && grove_layer_type_count(NULL, 0) == -1 && grove_layer_has_z(NULL, 0) == -1,
          "NULL handle everywhere");
    grove_close(NULL); /* no-op */
    grove_graph *closed = open_graph("endless.grove.yaml");
    grove_close(closed);
    CHECK(grove_points_in_region(closed, "trees", 0, 0, 10, 10, NULL, 0, error, sizeof error) == -1, "closed handle");
    CHECK(contains(error, "not an open graph"), "closed handle message: '%s'", error);
    CHECK(grove_layer_count(closed) == -1 && grove_chunk_size(closed) == -1, "closed handle, other calls");
    grove_close(closed); /* twice: nothing happens */
    CHECK(grove_points_in_region((grove_graph *)(void *)error, "trees", 0, 0, 10, 10, NULL, 0, error, sizeof error) == -1,
          "a made-up handle");

    /* layers */
    CHECK(grove_points_in_region(g, NULL, 0, 0, 10, 10, NULL, 0, error, sizeof error) == -1 &&
              contains(error, "layer name is NULL"),
          "NULL layer: '%s'", error);
    CHECK(grove_points_in_region(g, "treez", 0, 0, 10, 10, NULL, 0, error, sizeof error) == -1, "unknown layer");
    CHECK(!strcmp(error, "no exported layer 'treez' in this graph (its layers: 'rocks', 'trees'); did you mean 'trees'?"),
          "unknown layer message: '%s'", error);
    CHECK(grove_layer_index(g, "nope") == -1 && grove_layer_name(g, 2) == NULL && grove_layer_name(g, -1) == NULL &&
              grove_layer_type_name(g, 0, 2) == NULL && grove_layer_type_count(g, 7) == -1,
          "bad indices");

    /* regions */
    CHECK(grove_points_in_region(g, "trees", NAN, 0, 10, 10, NULL, 0, error, sizeof error) == -1 &&
              contains(error, "NaN"),
          "NaN region: '%s'", error);
    CHECK(grove_points_in_region(g, "trees", 0, 0, 10, NAN, pts, 4, error, sizeof error) == -1, "NaN y1");
    CHECK(grove_points_in_region(g, "trees", 10, 0, 0, 10, NULL, 0, error, sizeof error) == -1 &&
              contains(error, "inverted"),
          "inverted region: '%s'", error);
    CHECK(grove_points_in_region(g, "trees", 5, 5, 5, 9, pts, 0, error, sizeof error) == 0, "an empty region: 0 points");
    CHECK(grove_points_in_region(g, "trees", 1e12, 0, 1e12 + 10, 10, NULL, 0, error, sizeof error) == -1 &&
              contains(error, "beyond the chunk range"),
          "beyond the chunk range: '%s'", error);
    CHECK(grove_points_in_region(g, "trees", -INFINITY, 0, 10, 10, NULL, 0, error, sizeof error) == -1 &&
              contains(error, "beyond the chunk range"),
          "an infinite region of an endless world: '%s'", error);
    CHECK(grove_points_in_chunk(g, "trees", 40000, 0, NULL, 0, error, sizeof error) == -1 &&
              contains(error, "beyond the chunk range"),
          "chunk beyond the range: '%s'", error);

    /* capacity */
    long long n = grove_points_in_region(g, "trees", 0, 0, 128, 128, NULL, 0, error, sizeof error);
    CHECK(n > 4, "chunk (0, 0) has trees: %lld", n);
    CHECK(grove_points_in_region(g, "trees", 0, 0, 128, 128, pts, 4, error, sizeof error) == -1, "capacity too small");
    char expect[256];
    snprintf(expect, sizeof expect, "capacity 4 is too small: the region holds %lld points of layer 'trees'", n);
    CHECK(contains(error, expect), "capacity message: '%s'", error);
    CHECK(grove_points_in_region(g, "trees", 0, 0, 128, 128, pts, -1, error, sizeof error) == -1 &&
              contains(error, "capacity is negative (-1)"),
          "negative capacity: '%s'", error);
    CHECK(grove_points_in_region(g, "trees", 0, 0, 128, 128, NULL, -1, error, sizeof error) == -1,
          "negative capacity with out NULL");

    /* the error buffer: cut and NUL-terminated; NULL or 0 is fine */
    memset(error, 'x', sizeof error);
    CHECK(grove_points_in_region(g, "treez", 0, 0, 1, 1, NULL, 0, error, 8) == -1 && !strcmp(error, "no expo"),
          "an 8-byte buffer gets 7 bytes and a NUL: '%.16s'", error);
    CHECK(grove_points_in_region(g, "treez", 0, 0, 1, 1, NULL, 0, NULL, 100) == -1, "NULL error buffer");
    CHECK(grove_points_in_region(g, "treez", 0, 0, 1, 1, NULL, 0, error, 0) == -1 && error[0] == 'n',
          "a 0-byte buffer is not written");
    CHECK(contains(grove_last_error(), "no exported layer 'treez'"), "last error without a buffer: '%s'",
          grove_last_error());

    /* the point limit, before anything is placed */
    CHECK(grove_set_max_points(g, 1000) == 0, "set max points");
    CHECK(grove_points_in_region(g, "trees", 0, 0, 2000, 2000, NULL, 0, error, sizeof error) == -1 &&
              contains(error, "more than the limit of 1000"),
          "max points: '%s'", error);
    CHECK(grove_set_max_points(g, 0) == -1 && grove_set_threads(g, -2) == -1, "bad settings");
    grove_set_max_points(g, 20000000);

    /* cancel: a flag, until resume */
    CHECK(grove_cancel(g) == 0, "cancel");
    CHECK(grove_points_in_region(g, "trees", 0, 0, 10, 10, NULL, 0, error, sizeof error) == -1 && !strcmp(error, "cancelled"),
          "cancelled: '%s'", error);
    CHECK(grove_resume(g) == 0, "resume");
    CHECK(grove_points_in_region(g, "trees", 0, 0, 10, 10, NULL, 0, error, sizeof error) >= 0, "resumed: '%s'", error);

    /* a running call (minutes of work) ends cancelled after grove_cancel: had the cancel not
       reached it, it would have placed its region and returned a count */
    grove_graph *big = open_graph("endless.grove.yaml");
    grove_set_max_points(big, 1000000000LL);
    struct cancel_job j = {big, 0, {0}};
    pthread_t t;
    grove_activity idle = {-1, -1};
    CHECK(grove_get_activity(big, &idle) == 0 && idle.calls_running == 0 && idle.pieces_done == 0,
          "a new graph is idle: %d calls, %lld pieces", idle.calls_running, idle.pieces_done);
    CHECK(grove_get_activity(big, NULL) == -1 && contains(grove_last_error(), "out is NULL"), "activity into NULL");
    CHECK(grove_get_activity(NULL, &idle) == -1, "activity of NULL");
    pthread_create(&t, NULL, run_big, &j);
    grove_activity busy = await_running(big);
    CHECK(busy.calls_running == 1 && busy.pieces_done >= 1, "a running call is seen: %d calls, %lld pieces",
          busy.calls_running, busy.pieces_done);
    grove_cancel(big);
    pthread_join(t, NULL);
    CHECK(j.result == -1 && !strcmp(j.error, "cancelled"), "a running call is cancelled: %lld '%s'", j.result, j.error);
    CHECK(grove_get_activity(big, &idle) == 0 && idle.calls_running == 0 && idle.pieces_done >= busy.pieces_done,
          "the cancelled call is over: %d calls, %lld pieces", idle.calls_running, idle.pieces_done);
    grove_close(big);

    /* close while another thread is inside a call: that call ends cancelled, nothing crashes */
    big = open_graph("endless.grove.yaml");
    grove_set_max_points(big, 1000000000LL);
    j.g = big;
    pthread_create(&t, NULL, run_big, &j);
    await_running(big);
    grove_close(big);
    pthread_join(t, NULL);
    CHECK(j.result == -1 && !strcmp(j.error, "cancelled"), "closed under a running call: %lld '%s'", j.result, j.error);

    /* opening */
    CHECK(grove_open(NULL, 0, "x", error, sizeof error) == NULL && contains(error, "YAML text is NULL"), "NULL yaml: '%s'",
          error);
    const char *broken = "grove: 1\nworld: {width: 100, height: 100, seed: 1}\nnodes:\n  a:\n    type: value_noise\n"
                         "    params: {frequency: [1, 2}\n";
    CHECK(grove_open(broken, strlen(broken), "mem.grove.yaml", error, sizeof error) == NULL, "a YAML error");
    CHECK(!strncmp(error, "mem.grove.yaml:6:", 17) && contains(error, "error:"), "located YAML error: '%s'", error);
    const char *unknown = "grove: 1\nworld: {width: 100, height: 100, seed: 1}\nnodes:\n  a:\n    type: value_nosie\n";
    CHECK(grove_open(unknown, strlen(unknown), "mem.grove.yaml", error, sizeof error) == NULL, "an unknown type");
    CHECK(!strncmp(error, "mem.grove.yaml:5:11: error: ", 28) && contains(error, "did you mean 'value_noise'"),
          "located unknown type: '%s'", error);
    CHECK(grove_open(unknown, strlen(unknown), NULL, error, sizeof error) == NULL && !strncmp(error, "graph:5:11:", 11),
          "no name: 'graph': '%s'", error);
    /* the length counts, not a NUL: the same text cut short is another (broken) graph */
    const char *good = "grove: 1\nworld: {width: 100, height: 100, seed: 1}\nnodes: {}\n";
    grove_graph *empty = grove_open(good, strlen(good), "e", error, sizeof error);
    CHECK(empty != NULL && grove_layer_count(empty) == 0, "a graph without layers opens: '%s'", error);
    grove_close(empty);
    CHECK(grove_open(good, 20, "e", error, sizeof error) == NULL && !strncmp(error, "e:", 2), "length honoured: '%s'", error);
    CHECK(grove_open_file("/nonexistent/x.grove.yaml", error, sizeof error) == NULL &&
              contains(error, "/nonexistent/x.grove.yaml"),
          "missing file: '%s'", error);
    CHECK(grove_open_file(NULL, error, sizeof error) == NULL, "NULL path");
    const char *tooSmall = "grove: 1\nworld: {seed: 1, chunk: 20}\nnodes:\n  t:\n    type: place_layer\n    params: {radius: 10}\n";
    CHECK(grove_open(tooSmall, strlen(tooSmall), "c.grove.yaml", error, sizeof error) == NULL &&
              !strncmp(error, "c.grove.yaml:2:25: error: node 't' (place_layer): world chunk 20 is less than 4 times", 83),
          "a chunk too small for the radius, located at world.chunk: '%s'", error);
    grove_close(g);
}

/* Every graph of tests/bad-input: grove_open refuses it with exactly grove-cli's messages. */
static void check_bad_inputs(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "cannot open %s\n", dir);
        exit(2);
    }
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd) || chdir(dir) != 0)
        exit(2);
    int total = 0, wrong = 0;
    struct dirent *e;
    static char error[1 << 16];
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        const char *suffix = ".grove.yaml";
        if (len <= strlen(suffix) || strcmp(e->d_name + len - strlen(suffix), suffix) != 0)
            continue;
        ++total;
        size_t n = 0, m = 0;
        char expectPath[1024];
        snprintf(expectPath, sizeof expectPath, "%.*s.expect", (int)(len - strlen(suffix)), e->d_name);
        char *text = read_file(e->d_name, &n), *expect = read_file(expectPath, &m);
        if (!text || !expect) {
            fprintf(stderr, "FAIL bad input %s: unreadable or no .expect\n", e->d_name);
            ++wrong;
        } else {
            while (m > 0 && expect[m - 1] == '\n')
                expect[--m] = '\0';
            grove_graph *g = grove_open(text, n, e->d_name, error, sizeof error);
            if (g || strcmp(error, expect) != 0) {
                fprintf(stderr, "FAIL bad input %s: %s\n  got:  %s\n  want: %s\n", e->d_name, g ? "opened" : "messages differ",
                        error, expect);
                ++wrong;
            }
            grove_close(g);
        }
        free(text);
        free(expect);
    }
    closedir(d);
    if (chdir(cwd) != 0)
        exit(2);
    CHECK(total >= 60 && wrong == 0, "%d of %d bad inputs with grove-cli's exact messages", total - wrong, total);
    fprintf(stderr, "bad inputs: %d, all refused with their messages: %s\n", total, wrong ? "no" : "yes");
}

/* grove_options' overrides: applied as grove-cli's --set, checked, and refused when malformed */
static void check_overrides(void)
{
    char path[1024], error[512];
    snprintf(path, sizeof path, "%s/endless.grove.yaml", g_dir);
    const char *bigger[] = {"rocks.radius=28", "rocks.seed=3"};
    grove_options o = {0};
    o.sets = bigger;
    o.set_count = 2;
    grove_graph *plain = grove_open_file(path, NULL, 0), *set = grove_open_file_with(path, &o, error, sizeof error);
    long long n0 = grove_points_in_region(plain, "rocks", -500, -500, 500, 500, NULL, 0, NULL, 0);
    long long n1 = grove_points_in_region(set, "rocks", -500, -500, 500, 500, NULL, 0, NULL, 0);
    CHECK(set && n1 > 0 && n1 * 3 < n0, "radius 28 places far fewer rocks than 14: %lld, %lld (%s)", n1, n0, error);
    grove_close(plain);
    grove_close(set);
    const char *bad[] = {"rocks.radiuz=3"};
    o.sets = bad;
    o.set_count = 1;
    CHECK(!grove_open_file_with(path, &o, error, sizeof error) && contains(error, ": error: --set rocks.radiuz=3: ") &&
              contains(error, "did you mean 'radius'"),
          "a bad override: '%s'", error);
    const char *missing[] = {"rocks.radius=20", NULL};
    o.sets = missing;
    o.set_count = 2;
    CHECK(!grove_open_file_with(path, &o, error, sizeof error) && !strcmp(error, "sets[1] is NULL"), "NULL set: '%s'", error);
    o.sets = NULL;
    CHECK(!grove_open_file_with(path, &o, error, sizeof error) && contains(error, "sets is NULL"), "NULL sets: '%s'", error);
    o.set_count = 0;
    o.base_dir = g_dir;
    CHECK(!grove_open_file_with(path, &o, error, sizeof error) && contains(error, "base_dir"), "base_dir: '%s'", error);
    CHECK(!grove_open_file_with(NULL, NULL, error, sizeof error) && !strcmp(error, "the path is NULL"), "NULL path");
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: capi_test CAPI_DIR BAD_INPUT_DIR\n");
        return 2;
    }
    g_dir = argv[1];
    setlocale(LC_ALL, "");  /* a host that adopts the user's locale: libgrove's numbers must not follow it */
    CHECK(!strcmp(grove_version(), "0.1.0"), "version '%s'", grove_version());
    CHECK(sizeof(grove_point) == 64, "grove_point is 64 bytes");

    /* the endless world */
    grove_graph *g = open_graph("endless.grove.yaml");
    grove_world_info w;
    CHECK(grove_world(g, &w) == 0 && w.endless == 1 && w.chunk == 128 && w.width == 0 && w.seed == 1, "endless world info");
    CHECK(grove_chunk_size(g) == 128, "chunk size");
    CHECK(grove_layer_count(g) == 2 && !strcmp(grove_layer_name(g, 0), "rocks") && !strcmp(grove_layer_name(g, 1), "trees"),
          "layers rocks, trees");
    CHECK(grove_layer_type_count(g, 0) == 2 && !strcmp(grove_layer_type_name(g, 0, 0), "boulder") &&
              !strcmp(grove_layer_type_name(g, 0, 1), "pebble"),
          "rocks' types");
    CHECK(grove_layer_type_count(g, 1) == 1 && !strcmp(grove_layer_type_name(g, 1, 0), "trees"),
          "trees' one implicit type, named after the layer");
    CHECK(grove_layer_has_z(g, 0) == 1 && grove_layer_has_z(g, 1) == 0, "rocks have heights, trees not");
    CHECK(grove_layer_index(g, "trees") == 1, "index by name");
    /* regions anywhere, negative coordinates included, across many chunk borders */
    check_region_basics(g, "trees", -500, -300, 300, 420, "endless");
    check_region_basics(g, "rocks", -1000, -1000, 1000, 1000, "endless");
    {
        long long nr = 0, nt = 0;
        grove_point *rocks = points_in(g, "rocks", -400, -400, 400, 400, &nr);
        grove_point *trees = points_in(g, "trees", -400, -400, 400, 400, &nt);
        CHECK(too_close(trees, nt, rocks, nr, 20) == 0, "trees keep min(r) from rocks");
        long long turned = 0, zs = 0;
        for (long long i = 0; i < nr; ++i) {
            turned += rocks[i].rotation != 0 && rocks[i].scale != 1;
            zs += rocks[i].z != 0;
        }
        CHECK(turned > nr / 2 && zs > nr / 2, "rocks turn, scale and have heights: %lld, %lld of %lld", turned, zs, nr);
        for (long long i = 0; i < nt; ++i)
            CHECK(trees[i].z == 0 && trees[i].type == 0 && trees[i].rotation == 0 && trees[i].scale == 1,
                  "a plain tree %lld", i);
        free(rocks);
        free(trees);
    }
    check_quadrants(g, "trees", -333.5, -211.25, 402, 377, 12.75, 100);
    check_quadrants(g, "rocks", -1000, -900, 1100, 800, 0, 0);
    /* a chunk query is its region */
    {
        long long nc = grove_points_in_chunk(g, "trees", -2, 1, NULL, 0, NULL, 0);
        long long nrg = 0;
        grove_point *viaRegion = points_in(g, "trees", -256, 128, -128, 256, &nrg);
        grove_point *viaChunk = malloc(sizeof(grove_point) * (size_t)(nc > 0 ? nc : 1));
        CHECK(nc > 0 && grove_points_in_chunk(g, "trees", -2, 1, viaChunk, nc, NULL, 0) == nc && nc == nrg &&
                  !memcmp(viaChunk, viaRegion, sizeof(grove_point) * (size_t)nc),
              "chunk (-2, 1) equals its region: %lld and %lld", nc, nrg);
        free(viaRegion);
        free(viaChunk);
    }
    grove_close(g);

    /* a finite chunked world and the same graph without chunks */
    const char *finite[] = {"finite.grove.yaml", "whole.grove.yaml"};
    for (int f = 0; f < 2; ++f) {
        g = open_graph(finite[f]);
        CHECK(grove_world(g, &w) == 0 && w.endless == 0 && w.width == 700 && w.height == 500 && w.chunk == (f ? 0 : 128),
              "%s world info", finite[f]);
        check_region_basics(g, "trees", 100, 50, 650, 480, finite[f]);
        check_quadrants(g, "trees", 0, 0, 700, 500, 333, 250);
        check_quadrants(g, "rocks", -50, -50, 750, 550, 128, 256);
        long long all = grove_points_in_region(g, "trees", -INFINITY, -INFINITY, INFINITY, INFINITY, NULL, 0, NULL, 0);
        long long world = grove_points_in_region(g, "trees", 0, 0, 700, 500, NULL, 0, NULL, 0);
        CHECK(all == world && all > 100, "%s: an infinite region holds the world's points: %lld, %lld", finite[f], all, world);
        CHECK(grove_points_in_region(g, "trees", 800, 0, 900, 100, NULL, 0, NULL, 0) == 0 &&
                  grove_points_in_region(g, "trees", -1e300, -1e300, -1, -1, NULL, 0, NULL, 0) == 0,
              "%s: outside the world: 0 points", finite[f]);
        if (f == 1) {
            char error[256];
            CHECK(grove_chunk_size(g) == 0 &&
                      grove_points_in_chunk(g, "trees", 0, 0, NULL, 0, error, sizeof error) == -1 &&
                      contains(error, "no chunks"),
                  "no chunks: '%s'", error);
        }
        grove_close(g);
    }

    /* a world that repeats along x only (world.wrap: x), and the finite one that does not */
    const char *torus = "grove: 1\nworld: {width: 100, height: 80, seed: 1, wrap: x}\nnodes:\n  a: {type: place_layer, params: {radius: 5}}\n";
    int32_t wrap_x = 7, wrap_y = 7;
    g = grove_open(torus, strlen(torus), "torus.grove.yaml", NULL, 0);
    CHECK(grove_world_wrap(g, &wrap_x, &wrap_y) == 0 && wrap_x == 1 && wrap_y == 0, "wrap: x: %d, %d", (int)wrap_x, (int)wrap_y);
    CHECK(grove_world_wrap(g, NULL, &wrap_y) == -1 && contains(grove_last_error(), "wrap_x is NULL"), "NULL wrap_x: '%s'",
          grove_last_error());
    grove_close(g);
    g = open_graph("whole.grove.yaml");
    CHECK(grove_world_wrap(g, &wrap_x, &wrap_y) == 0 && wrap_x == 0 && wrap_y == 0, "no wrap: %d, %d", (int)wrap_x, (int)wrap_y);
    grove_close(g);

    check_threads("endless.grove.yaml", "trees", 1);
    check_threads("endless.grove.yaml", "rocks", 2);
    check_threads("finite.grove.yaml", "trees", 0);
    check_errors();
    check_overrides();
    check_bad_inputs(argv[2]);

    fprintf(stderr, "%d checks, %d failed\n", (int)checks, (int)failures);
    return failures ? 1 : 0;
}
