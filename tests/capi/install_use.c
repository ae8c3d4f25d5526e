/* Built against an installed grove.h and libgrove.so alone (check-install.sh): a chunk of an
 * endless world's trees. */
#include <grove.h>

#include <stdio.h>
#include <string.h>

int main(void)
{
    const char *text = "grove: 1\nworld: {seed: 1, chunk: 256}\nnodes:\n  trees: {type: place_layer, params: {radius: 8}}\n";
    char error[512];
    grove_graph *graph = grove_open(text, strlen(text), "installed.grove.yaml", error, sizeof error);
    if (!graph) {
        fprintf(stderr, "%s\n", error);
        return 1;
    }
    const long long n = grove_points_in_chunk(graph, "trees", 3, -2, NULL, 0, error, sizeof error);
    printf("libgrove %s: %lld trees in chunk (3, -2)\n", grove_version(), n);
    grove_close(graph);
    return n > 100 ? 0 : 1;
}
