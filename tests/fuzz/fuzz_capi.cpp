// libFuzzer target: libgrove's C functions only. The bytes are graph YAML, then (after a NUL) a
// layer name, a NUL, and up to four doubles (x0, y0, x1, y1) and an int pair (a chunk): every
// layer and the fuzzed name are asked for that region and chunk, with checks on every answer.
#include "grove.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

[[noreturn]] void fail(const char *what, const std::string &detail)
{
    std::fprintf(stderr, "fuzz_capi: %s\n%s\n", what, detail.c_str());
    std::abort();
}

// An error buffer with a guard byte past its end: the message is NUL-terminated inside it.
struct ErrorBuffer
{
    char text[257];
    ErrorBuffer() { std::memset(text, 'G', sizeof text); }
    void check(const char *who) const
    {
        if (text[256] != 'G')
            fail("the message ran past its buffer", who);
        if (!std::memchr(text, '\0', 256))
            fail("the message is not NUL-terminated", who);
        if (text[0] == '\0')
            fail("a failure without a message", who);
    }
};

void ask(grove_graph *g, const char *layer, const double r[4], int ci, int cj, const std::string &input)
{
    ErrorBuffer e;
    const long long n = grove_points_in_region(g, layer, r[0], r[1], r[2], r[3], nullptr, 0, e.text, 256);
    if (n < 0) {
        e.check("grove_points_in_region");
    } else {
        std::vector<grove_point> out(static_cast<std::size_t>(n) + 1);
        ErrorBuffer e2;
        const long long m = grove_points_in_region(g, layer, r[0], r[1], r[2], r[3], out.data(), n, e2.text, 256);
        if (m != n)
            fail("the count with out NULL differs from the points written", input);
        for (long long k = 0; k < n; ++k) {
            const grove_point &p = out[static_cast<std::size_t>(k)];
            if (!(p.x >= r[0] && p.x < r[2] && p.y >= r[1] && p.y < r[3]))
                fail("a point outside the region", input);
            if (p.type < 0 || p.id >= (std::uint64_t(1) << 53))
                fail("a point with a bad type or id", input);
        }
        if (n > 0) {
            ErrorBuffer e3;
            if (grove_points_in_region(g, layer, r[0], r[1], r[2], r[3], out.data(), n - 1, e3.text, 256) != -1)
                fail("a capacity one short was accepted", input);
            e3.check("capacity");
        }
    }
    ErrorBuffer e4;
    if (grove_points_in_chunk(g, layer, ci, cj, nullptr, 0, e4.text, 256) < 0)
        e4.check("grove_points_in_chunk");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const char *bytes = reinterpret_cast<const char *>(data);
    const std::string input(bytes, size);
    const void *nul = std::memchr(bytes, '\0', size);
    const std::size_t yamlLength = nul ? static_cast<std::size_t>(static_cast<const char *>(nul) - bytes) : size;
    std::string layer;
    double region[4] = {-100, -100, 300, 300};
    int chunk[2] = {0, 0};
    if (nul) {
        std::size_t at = yamlLength + 1;
        while (at < size && bytes[at])
            layer += bytes[at++];
        ++at;
        for (int k = 0; k < 4 && at + 8 <= size; ++k, at += 8)
            std::memcpy(&region[k], bytes + at, 8);
        for (int k = 0; k < 2 && at + 4 <= size; ++k, at += 4)
            std::memcpy(&chunk[k], bytes + at, 4);
    }

    grove_options options{};
    options.max_points = 20000;  // the fuzzer explores inputs, not slow ones
    ErrorBuffer e;
    grove_graph *g = grove_open_with(bytes, yamlLength, "fuzz.grove.yaml", &options, e.text, 256);
    if (!g) {
        e.check("grove_open");
        if (std::strncmp(e.text, "fuzz.grove.yaml", 15) != 0)
            fail("an open failure not located in the graph", std::string(e.text) + "\n---\n" + input);
        return 0;
    }
    grove_set_max_points(g, 20000);
    const int layers = grove_layer_count(g);
    if (layers < 0)
        fail("an open graph without a layer count", input);
    for (int i = 0; i < layers && i < 4; ++i) {
        const char *name = grove_layer_name(g, i);
        if (!name)
            fail("a layer without a name", input);
        const int types = grove_layer_type_count(g, i);
        if (types < 1)
            fail("a layer without types", input);
        for (int t = 0; t < types; ++t)
            if (!grove_layer_type_name(g, i, t))
                fail("a type without a name", input);
        const std::string copy = name;
        ask(g, copy.c_str(), region, chunk[0], chunk[1], input);
    }
    ask(g, layer.c_str(), region, chunk[0], chunk[1], input);
    ask(g, nullptr, region, chunk[0], chunk[1], input);
    grove_close(g);
    if (grove_layer_count(g) != -1)
        fail("a closed graph still answers", input);
    return 0;
}
