// Bridson's candidates in the ring [r, 2r] around a parent, by square rejection, from draws read
// ahead: the tutorial's order, four pairs of draws at a time in AVX2 lanes where the CPU has them.
#pragma once

#include <cstddef>

namespace grove {

// Where a step's candidates go: offsets from the parent, and the draws the step has used once
// each is made (so the draws can resume just after the one that becomes a point). Each array
// holds upTo + 3: the lanes may write three past the last candidate.
struct RingCandidates
{
    double *dx;
    double *dy;
    std::size_t *drawsAfter;
};

// Makes candidates from the pairs of draws d[used], d[used + 1], ... (a pair's offset is
// ((d * 4 - 2) r, (d' * 4 - 2) r), kept when r^2 <= dx^2 + dy^2 <= 4 r^2) into out[count], ...,
// until `count` reaches `upTo` or fewer than two draws are left before `available`; advances
// `used` and `count`. Either path makes the same doubles and uses the same draws.
void makeRingCandidates(const double *d, std::size_t available, double r, std::size_t upTo, std::size_t &used,
                        std::size_t &count, const RingCandidates &out);

// Chooses the AVX2 lanes (when the CPU has them) or the scalar loop, to test both (GROVE_SIMD).
void setRingCandidatesSimd(bool allowed);

} // namespace grove
