// grove-cli's usage text: every command and option, as `grove-cli --help` prints it.
#include "CliUsage.h"

const char *const kCliUsage = R"(usage:
  grove-cli validate FILE...                 check graphs; print every problem; exit 1 if any
  grove-cli eval FILE [options]              evaluate a graph and export its layers
      -o, --out PATH        file to write (default: stdout); with --split, a folder: one file per layer
      --format json|csv|tiled|gltf|godot|unreal|unreal-json
      --split               one file per layer
      --seed N              override world.seed
      --set NODE.PARAM=VALUE   override a param (repeatable), checked like the file
      --layers a,b          export only these layers
      --png FILE            also render the preview image (ground + sprites) to a PNG
      --png-size N          the PNG's longer side in pixels (default 2048; the world's size when smaller)
      --stats               per-layer statistics on stderr: count, tightest pair, pairs closer than
                            min(ri, rj) (always 0 for place_layer), widest clearing, time
      --max-points N        points one layer may hold (default 20000000)
      --threads N           threads for chunks and raster rows, 1 to 256 (default: every core);
                            the bytes are the same for any N
      --region x0,y0,x1,y1  chunked worlds: export only this rectangle (x0 <= x < x1, y0 <= y < y1);
                            required for an endless world, inside the world for a finite one
      --shard K/N           chunked worlds: shard K (0 to N-1) of N, a run of the region's chunks,
                            as a JSON part for grove-cli merge
      --quiet               no progress line (it shows only when stderr is a terminal)
  grove-cli check FILE... [options]          evaluate graphs and hold their layers to their `expect`
      --expect 'LAYER.METRIC OP NUMBER'   one more (repeatable); METRIC: count, density, tightest,
                            too_close, clearing, coverage, low_freq, anisotropy; OP: >= <= > < == !=
      --spectrum [LAYER=]FILE.png   paint the layer's periodogram and its radial average
      --region x0,y0,x1,y1  measure this rectangle (an endless world: default 4 x 4 chunks from 0,0)
      --threads N, --quiet  threads as for eval; print only failed expectations
  grove-cli merge PART... [-o OUT]           join the parts of eval --shard into the whole export
  grove-cli inputs FILE                      the graph and every file it reads (groups, images, ...), one a line
  grove-cli diff OLD NEW [options]           what changed per layer: points kept, moved, added, removed;
                                             OLD and NEW: two graphs or two exports of one format (JSON
                                             or CSV), a file or REV:path (git show); exit 0 same,
                                             1 different, 2 trouble
      --png FILE            paint the changes (kept grey, removed red, added green, moved arrows)
      --png-size N          the PNG's longer side in pixels (default 1024)
      --json                the report as JSON (per layer counts and the changed points)
      --tolerance D         moved: matched within D world units (default: the layer's largest radius)
      --region, --threads, --seed, --set, --quiet   as for eval, applied to both graphs
  grove-cli format FILE... [--check]         rewrite graphs in canonical form (--check: only report)
  grove-cli bench [FILE] [--runs N]          time the standard workloads (or FILE's layers): medians
  grove-cli nodes [--json|--markdown]        the node catalog, generated from the node descriptors
  grove-cli --help | --version

exit status: 0 success, 1 invalid graph, failed evaluation or failed expectation, 2 bad usage, 130 interrupted
(Ctrl+C: nothing written); diff: 0 same, 1 different, 2 trouble (bad usage, input or graph)
)";
