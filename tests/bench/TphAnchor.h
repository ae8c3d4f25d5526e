// The tph_poisson anchor (TphAnchor.c), built only when ../shared/anchors/tph_poisson is present.
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

// Samples [0, width) x [0, height) with radius and attempts per point; returns the number of
// samples (-1 on error) and writes the first sample's x, y to firstXY when given.
long long grove_bench_tph_points(double width, double height, double radius, unsigned attempts, unsigned long long seed,
                                 double *firstXY);

#ifdef __cplusplus
}
#endif
