/* thinks/tph_poisson v0.4 built in doubles, as the export benchmarks' anchor. The header
   is read from ../shared/anchors/tph_poisson (GROVE_ANCHORS_DIR), never copied into Grove. */
#include <math.h>

#define TPH_POISSON_REAL_TYPE double
#define TPH_POISSON_SQRT sqrt
#define TPH_POISSON_CEIL ceil
#define TPH_POISSON_FLOOR floor
#define TPH_POISSON_IMPLEMENTATION
#include "tph_poisson.h"

#include "TphAnchor.h"

#include <string.h>

long long grove_bench_tph_points(double width, double height, double radius, unsigned attempts, unsigned long long seed,
                                 double *firstXY)
{
    const tph_poisson_real bmin[2] = {0, 0};
    const tph_poisson_real bmax[2] = {width, height};
    tph_poisson_args args;
    memset(&args, 0, sizeof args);
    args.bounds_min = bmin;
    args.bounds_max = bmax;
    args.radius = radius;
    args.ndims = 2;
    args.max_sample_attempts = attempts;
    args.seed = seed;
    tph_poisson_sampling sampling;
    memset(&sampling, 0, sizeof sampling);
    if (tph_poisson_create(&args, NULL, &sampling) != TPH_POISSON_SUCCESS)
        return -1;
    const tph_poisson_real *samples = tph_poisson_get_samples(&sampling);
    const long long n = (long long)sampling.nsamples;
    if (firstXY && n > 0) {
        firstXY[0] = samples[0];
        firstXY[1] = samples[1];
    }
    tph_poisson_destroy(&sampling);
    return n;
}
