// Golden data for Grove's exact nodes, computed by the seeds' own JavaScript.
//
//   node tests/oracle/generate.mjs OUTDIR      (the committed copy is tests/golden)
//
// Every case is a folder OUTDIR/<subject>/<NNN_name>/ holding graph.grove.yaml (the graph Grove
// loads) and expected.json (what the seed JavaScript computes for it). The graph is evaluated here
// by a small harness that mirrors spec/nodes.md and calls the seed functions from seedjs.mjs for
// every exact step; the harness itself never re-implements sampling or noise.
// Output is deterministic: the same seeds give the same bytes.

import fs from "node:fs";
import path from "node:path";
import {
  S, SUBJECTS, MAX_CASE_POINTS, prng, round, nextUp, nextDown, Graph,
  graphYaml, wrap32, bucketGrid, evaluate,
} from "./harness.mjs";

// ---------------------------------------------------------------------------------------------
// Cases.

const cases = Object.fromEntries(SUBJECTS.map((s) => [s, []]));

function addCase(subject, short, world, build, extra = {}) {
  const index = String(cases[subject].length + 1).padStart(3, "0");
  const dir = `${index}_${short}`;
  if (!/^[0-9]{3}_[a-z0-9_]+$/.test(dir)) throw new Error(`bad case name ${dir}`);
  const g = new Graph(`${subject} ${dir}`, world);
  build(g);
  cases[subject].push({ subject, dir, graph: g, ...extra });
}

// 200 sample positions for a field: specials, lattice lines and their neighbouring doubles,
// small, medium and huge coordinates, negative and fractional.
function samplePositions(rnd, frequency) {
  const out = [
    [0, 0], [0.5, 0.5], [-0.5, -0.5], [-0.25, 0.75], [1, 1], [-1, -1], [0.1, 0.2], [1e-9, -1e-9],
    [1e6, 1e6], [1e6 + 0.25, -1e6 - 0.75], [-1e6, 3.5], [1e9, 1e9], [-1e9, 1e9], [1e9 + 0.5, -3.25],
    [2147483647, -2147483648], [2147483648.5, 4294967296.25], [4294967296, 1], [-4294967297.5, 12],
    [123456789.123, -987654321.987], [1e12, -1e12], [-1e12, 0.1], [7, -1e12 - 0.5],
  ];
  for (let i = 0; i < 20; i++) {
    const nx = rnd.pick([-1, 1]) * rnd.int(1, 60);
    const ny = rnd.pick([-1, 1]) * rnd.int(1, 60);
    const x = nx / frequency;
    const y = ny / frequency;
    out.push([x, y], [nextUp(x), nextDown(y)], [nextDown(x), nextUp(y)]);
  }
  for (let i = 0; i < 60; i++) out.push([rnd.range(-300, 300, 4), rnd.range(-300, 300, 4)]);
  for (let i = 0; i < 30; i++) out.push([rnd.range(-1e5, 1e5, 2), rnd.range(-1e5, 1e5, 2)]);
  while (out.length < 200) {
    const big = () => rnd.pick([-1, 1]) * round(10 ** (6 + 4 * rnd.float()), 3);
    out.push([big(), rnd.chance(0.5) ? big() : rnd.range(-50, 50, 3)]);
  }
  return out;
}

const FREQS = [0.001, 0.002, 0.005, 0.0125, 0.03, 0.07, 0.1, 0.25, 0.5, 1, 3.7];
const LACS = [1.5, 2, 2.5, 3];
const PERS = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8];
const EDGE_SEEDS = [0, -1, 1, 2147483647, -2147483648, 123456];

function noiseCases() {
  const rnd = prng("noise");
  const world = { width: 512, height: 512, seed: 0 };
  const one = (short, w, params, freqForSamples) => {
    addCase("noise", short, w, (g) => g.add("height", "value_noise", params), {
      samples: samplePositions(rnd, freqForSamples ?? params.frequency ?? 0.01),
    });
  };
  one("defaults", world, {});
  one("freq_0_001_oct1", world, { frequency: 0.001, octaves: 1 });
  one("freq_0_5_oct8", world, { frequency: 0.5, octaves: 8 });
  one("freq_1_oct3", world, { frequency: 1, octaves: 3 });
  one("freq_3_7_lac2_5", world, { frequency: 3.7, octaves: 5, lacunarity: 2.5, persistence: 0.6 });
  one("lac3_pers0_8", world, { frequency: 0.05, octaves: 6, lacunarity: 3, persistence: 0.8 });
  one("lac1_5_pers0_3", world, { frequency: 0.02, octaves: 4, lacunarity: 1.5, persistence: 0.3 });
  one("seed_minus1", world, { frequency: 0.03, seed: -1 });
  one("seed_1", world, { frequency: 0.03, seed: 1 });
  one("seed_int32_max", world, { frequency: 0.1, octaves: 8, seed: 2147483647 });
  one("seed_int32_min", world, { frequency: 0.1, octaves: 8, seed: -2147483648 });
  one("world_seed_wraps_up", { ...world, seed: 2147483647 }, { frequency: 0.01, seed: 1 });
  one("world_seed_wraps_down", { ...world, seed: -2147483648 }, { frequency: 0.01, seed: -1 });
  one("world_seed_sum_wraps", { ...world, seed: 2000000000 }, { frequency: 0.07, octaves: 5, seed: 2000000000 });
  one("world_seed_123456", { ...world, seed: 123456 }, { frequency: 0.0125, seed: 7 });
  one("extreme_freq_3_7_oct8_lac3", world, { frequency: 3.7, octaves: 8, lacunarity: 3, persistence: 0.8, seed: 2147483647 });
  one("oct2_lac2_5", world, { frequency: 0.25, octaves: 2, lacunarity: 2.5, persistence: 0.5, seed: 99 });
  one("oct7_pers0_7", world, { frequency: 0.013, octaves: 7, persistence: 0.7, seed: -77 });
  one("freq_1e_7", world, { frequency: 1e-7, octaves: 3, seed: 5 }, 1e-4);
  addCase("noise", "two_fields", { ...world, seed: 31337 }, (g) => {
    g.add("height", "value_noise", { frequency: 0.01, seed: 0 });
    g.add("moisture", "value_noise", { frequency: 0.013, octaves: 3, seed: 1 });
  }, { samples: samplePositions(rnd, 0.01) });
  for (let i = 0; i < 14; i++) {
    const frequency = rnd.chance(0.7) ? rnd.pick(FREQS) : rnd.range(0.001, 0.6, 4);
    const params = {
      frequency,
      octaves: rnd.int(1, 8),
      lacunarity: rnd.chance(0.8) ? rnd.pick(LACS) : rnd.range(1.5, 3, 2),
      persistence: rnd.chance(0.8) ? rnd.pick(PERS) : rnd.range(0.3, 0.8, 2),
      seed: rnd.chance(0.3) ? rnd.pick(EDGE_SEEDS) : rnd.int32(),
    };
    const w = { ...world, seed: rnd.chance(0.5) ? rnd.int32() : 0 };
    one(`mix_${String(i + 1).padStart(2, "0")}`, w, params);
  }
}

function thresholdCases() {
  const rnd = prng("threshold");
  const world = { width: 640, height: 480, seed: 0 };
  const one = (short, w, noise, threshold, cutsFromSamples) => {
    const samples = samplePositions(rnd, noise.frequency ?? 0.01);
    addCase("threshold", short, w, (g) => {
      g.add("height", "value_noise", noise);
      const params = { ...threshold };
      if (cutsFromSamples) {
        // Cuts equal to the field at sampled points: F == cut must fall in the band above.
        const field = evaluate(g).values.get("height").field;
        params.cuts = cutsFromSamples.map((i) => field(...samples[i])).sort((a, b) => a - b);
      }
      g.add("bands", "threshold", params, { field: "height" });
    }, { samples });
  };
  one("defaults", world, {});
  one("one_cut", world, { frequency: 0.02, seed: 3 }, { cuts: [0.5], labels: ["low", "high"] });
  one("four_cuts", world, { frequency: 0.05, octaves: 6, seed: -9 },
    { cuts: [0.2, 0.4, 0.6, 0.8], labels: ["abyss", "water", "sand", "grass", "rock"] });
  one("cuts_equal_to_samples", world, { frequency: 0.01, seed: 11 },
    { labels: ["water", "sand", "grass", "rock"] }, [0, 30, 120]);
  one("cuts_outside_range", world, { frequency: 0.1, seed: 2147483647 },
    { cuts: [0, 1], labels: ["below", "inside", "above"] });
  one("seed_wrap_tutorial_cuts", { ...world, seed: -2147483648 },
    { frequency: 1, octaves: 8, lacunarity: 3, seed: -5 }, { cuts: [0.35, 0.45, 0.7], labels: ["water", "sand", "grass", "rock"] });
  one("narrow_band", world, { frequency: 0.0125, persistence: 0.8, seed: 123456 },
    { cuts: [0.35, 0.37], labels: ["water", "sand", "grass"] });
}

function samplerCases() {
  const rnd = prng("samplers");
  const one = (short, world, type, params) => addCase("samplers", short, world, (g) => g.add("pts", type, params));
  one("random_points_100", { width: 640, height: 480 }, "random_points", { count: 100, seed: 123456 });
  one("random_points_nonint_world", { width: 100.5, height: 77.25, seed: 9 }, "random_points", { count: 1000, seed: -1 });
  one("random_points_zero", { width: 300, height: 200 }, "random_points", { count: 0, seed: 1 });
  one("random_points_one_seed_min", { width: 333.3, height: 50 }, "random_points", { count: 1, seed: -2147483648 });
  one("random_points_seed_wrap", { width: 1000, height: 1000, seed: 2147483647 }, "random_points", { count: 500, seed: 1 });
  one("jittered_grid_26", { width: 720, height: 400 }, "jittered_grid", { spacing: 26, seed: 123456 });
  one("jittered_grid_nonint_spacing", { width: 333.3, height: 50 }, "jittered_grid", { spacing: 7.5, seed: 0 });
  one("jittered_grid_odd_spacing", { width: 100.5, height: 77.25, seed: -3 }, "jittered_grid", { spacing: 3.3, seed: 2147483647 });
  one("jittered_grid_spacing_over_world", { width: 20, height: 300 }, "jittered_grid", { spacing: 25, seed: 4 });
  one("jittered_grid_exact_fit", { width: 100, height: 60 }, "jittered_grid", { spacing: 20, seed: -1 });
  one("dart_throwing_tutorial", { width: 720, height: 400 }, "dart_throwing", { radius: 26, max_misses: 200, seed: 123456 });
  one("dart_throwing_few_misses", { width: 300, height: 300 }, "dart_throwing", { radius: 12.5, max_misses: 5, seed: 0 });
  one("dart_throwing_nonint", { width: 100.5, height: 77.25, seed: 2147483000 }, "dart_throwing", { radius: 9.75, max_misses: 1000, seed: 1000 });
  one("dart_throwing_radius_over_world", { width: 10, height: 10 }, "dart_throwing", { radius: 40, max_misses: 30, seed: -2147483648 });
  for (let i = 0; i < 6; i++) {
    const world = { width: rnd.range(30, 500, 2), height: rnd.range(30, 400, 2), seed: rnd.chance(0.5) ? rnd.int32() : 0 };
    const seed = rnd.chance(0.3) ? rnd.pick(EDGE_SEEDS) : rnd.int32();
    const type = ["random_points", "jittered_grid", "dart_throwing"][i % 3];
    const area = world.width * world.height;
    const params = type === "random_points" ? { count: rnd.int(1, 2000), seed }
      : type === "jittered_grid" ? { spacing: Math.max(rnd.range(2, 40, 3), round(Math.sqrt(area / 3000), 3) + 0.5), seed }
        : { radius: Math.max(rnd.range(5, 40, 2), round(Math.sqrt(area / 400), 2) + 0.25), max_misses: rnd.pick([10, 50, 300]), seed };
    one(`mix_${type}_${i + 1}`, world, type, params);
  }
}

// A place_layer's params; `undefined` values are dropped so catalog defaults apply.
function lp(radius, k, seed, start, sx, sy) {
  const p = { radius, k, seed, start, start_x: sx, start_y: sy };
  for (const key of Object.keys(p)) if (p[key] === undefined) delete p[key];
  return p;
}

function placementCases() {
  const rnd = prng("placement");
  const single = (short, world, params) => addCase("placement", short, world, (g) => g.add("trees", "place_layer", params));

  // Patches (seed 000's placeLayer).
  single("patches_defaults", { width: 300, height: 200 }, { seed: 0 });
  single("patches_tutorial_880x480", { width: 880, height: 480 }, lp(24, 30, 123456, "patches"));
  single("patches_nonint_world", { width: 100.5, height: 77.25 }, lp(7.5, 30, 1, "patches"));
  single("patches_strip_333x50", { width: 333.3, height: 50 }, lp(4.2, 10, -1, "patches"));
  single("patches_square_bigger_than_world", { width: 7.3, height: 5.1 }, lp(20, 30, 5, "patches"));
  single("patches_unit_world", { width: 1, height: 1 }, lp(2, 3, 77, "patches"));
  single("patches_thin_strip", { width: 3.7, height: 400 }, lp(5, 30, 123456, "patches"));
  single("patches_r60", { width: 500, height: 500 }, lp(60, 30, 2147483647, "patches"));
  single("patches_k1", { width: 200, height: 150 }, lp(6, 1, 42, "patches"));
  single("patches_k2_seed_min", { width: 200, height: 150 }, lp(6, 2, -2147483648, "patches"));
  single("patches_k3", { width: 211.5, height: 123.25 }, lp(5.5, 3, 3, "patches"));
  single("patches_k5", { width: 250, height: 250 }, lp(9, 5, 555, "patches"));
  single("patches_k50_r3_3", { width: 160, height: 120 }, lp(3.3, 50, 0, "patches"));
  single("patches_r2", { width: 150, height: 110 }, lp(2, 30, 7, "patches"));
  single("patches_seed_wraps_up", { width: 400, height: 300, seed: 2147483647 }, lp(15, 30, 1, "patches"));
  single("patches_seed_wraps_down", { width: 400, height: 300, seed: -2147483648 }, lp(15, 30, -1, "patches"));
  single("patches_r13_37", { width: 640.25, height: 360.5 }, lp(13.37, 30, 99991, "patches"));
  single("patches_squares_tile_exactly", { width: 200, height: 200 }, lp(25, 30, 8, "patches"));
  single("patches_world_seed_only", { width: 300, height: 300, seed: 123456 }, lp(10, 30, 0, "patches"));

  // Random start (seed 000's poissonDisk on the shared grid).
  single("random_tutorial_720x400", { width: 720, height: 400 }, lp(24, 30, 123456, "random"));
  single("random_nonint_world_seed0", { width: 100.5, height: 77.25 }, lp(5.5, 30, 0, "random"));
  single("random_strip_333x50", { width: 333.3, height: 50 }, lp(3, 30, -1, "random"));
  single("random_small_world", { width: 10, height: 10 }, lp(4, 30, 10, "random"));
  single("random_k1", { width: 300, height: 300 }, lp(10, 1, 424242, "random"));
  single("random_k2", { width: 300, height: 200 }, lp(8, 2, 928374651, "random"));
  single("random_k3", { width: 250.75, height: 250.25 }, lp(7, 3, 50607080, "random"));
  single("random_k5", { width: 200, height: 300 }, lp(6.25, 5, -1357911, "random"));
  single("random_k10", { width: 320, height: 240 }, lp(5, 10, 777777777, "random"));
  single("random_k50", { width: 200, height: 200 }, lp(3.5, 50, 246813579, "random"));
  single("random_r60_seed_max", { width: 1000, height: 700 }, lp(60, 30, 2147483647, "random"));
  single("random_seed_min", { width: 300, height: 300 }, lp(12, 30, -2147483648, "random"));
  single("random_r2", { width: 125, height: 90 }, lp(2, 30, 1000003, "random"));
  single("random_defaults_radius_k", { width: 256, height: 256 }, { start: "random", seed: 2 });

  // Point start: inside, on the edges, outside.
  single("point_center", { width: 400, height: 300 }, lp(12, 30, 1, "point", 200, 150));
  single("point_origin", { width: 400, height: 300 }, lp(12, 30, 2, "point", 0, 0));
  single("point_left_edge", { width: 400, height: 300 }, lp(9.5, 30, 3, "point", 0, 123.4));
  single("point_right_edge_rejected", { width: 400, height: 300 }, lp(12, 30, 4, "point", 400, 150));
  single("point_bottom_edge_rejected", { width: 400, height: 300 }, lp(12, 30, 4, "point", 150, 300));
  single("point_just_inside_corner", { width: 400, height: 300 }, lp(12, 30, 5, "point", nextDown(400), nextDown(300)));
  single("point_outside_negative", { width: 400, height: 300 }, lp(12, 30, 6, "point", -5, 20));
  single("point_outside_far", { width: 400, height: 300 }, lp(12, 30, 7, "point", 1000, 1000));
  single("point_nonint_world", { width: 100.5, height: 77.25 }, lp(3.25, 10, 8, "point", 50.25, 38.625));
  single("point_k1", { width: 300, height: 300 }, lp(8, 1, 9, "point", 150, 150));
  single("point_seed_max", { width: 333.3, height: 50 }, lp(4, 30, 2147483647, "point", 333.2, 0.1));

  // Allowed rules from noise.
  const allowedCase = (short, world, rule, layer, noise = { frequency: 0.01, seed: 0 }) =>
    addCase("placement", short, world, (g) => {
      g.add("height", "value_noise", noise);
      g.add("land", "allowed_rule", rule, { field: "height" });
      g.add("trees", "place_layer", layer, { allowed: "land" });
    });
  allowedCase("allowed_min_patches", { width: 400, height: 300 }, { min: 0.45 }, lp(8, 30, 1, "patches"));
  allowedCase("allowed_max_patches", { width: 400, height: 300, seed: 5 }, { max: 0.5 }, lp(7, 30, 2, "patches"));
  allowedCase("allowed_band_patches", { width: 350.5, height: 260.25 }, { min: 0.4, max: 0.6 }, lp(6, 20, 3, "patches"),
    { frequency: 0.02, octaves: 5, seed: 3 });
  allowedCase("allowed_band_inverted", { width: 350.5, height: 260.25 }, { min: 0.4, max: 0.6, invert: true },
    lp(6, 20, 3, "patches"), { frequency: 0.02, octaves: 5, seed: 3 });
  allowedCase("allowed_islands_patches", { width: 500, height: 400 }, { min: 0.62 }, lp(5, 30, 4, "patches"),
    { frequency: 0.03, octaves: 3, seed: -8 });
  allowedCase("allowed_min_random", { width: 400, height: 300 }, { min: 0.45 }, lp(8, 30, 2, "random"));
  allowedCase("allowed_max_k1", { width: 400, height: 300 }, { max: 0.55 }, lp(6, 1, 6, "patches"));
  allowedCase("allowed_min_point", { width: 400, height: 300 }, { min: 0.3 }, lp(9, 30, 7, "point", 200, 150));
  {
    // A random start whose first point lands on disallowed ground: the layer stays empty.
    const noise = { frequency: 0.01, seed: 0 };
    const field = (x, y) => S.fbm(x * 0.01, y * 0.01, 0, 4, 2, 0.5);
    let seed = 1;
    for (;; seed++) {
      const r = new S.SeededRandom(seed);
      if (!(field(r.nextFloat() * 400, r.nextFloat() * 300) >= 0.55)) break;
    }
    allowedCase("allowed_random_first_rejected", { width: 400, height: 300 }, { min: 0.55 }, lp(8, 30, seed, "random"), noise);
  }
  addCase("placement", "allowed_labels_include", { width: 480, height: 320, seed: 77 }, (g) => {
    g.add("height", "value_noise", { frequency: 0.015, octaves: 5, seed: 0 });
    g.add("bands", "threshold", {}, { field: "height" });
    g.add("land", "allowed_rule", { include: ["grass", "rock"] }, { labels: "bands" });
    g.add("trees", "place_layer", lp(7, 30, 1, "patches"), { allowed: "land" });
  });
  addCase("placement", "allowed_labels_and_field", { width: 480, height: 320 }, (g) => {
    g.add("height", "value_noise", { frequency: 0.015, seed: 4 });
    g.add("moisture", "value_noise", { frequency: 0.02, octaves: 3, seed: 5 });
    g.add("bands", "threshold", { cuts: [0.4, 0.6], labels: ["low", "mid", "high"] }, { field: "height" });
    g.add("meadow", "allowed_rule", { max: 0.5, include: ["mid", "high"] }, { field: "moisture", labels: "bands" });
    g.add("flowers", "place_layer", lp(5, 30, 2, "patches"), { allowed: "meadow" });
  });
  addCase("placement", "allowed_mask_chain", { width: 500, height: 350 }, (g) => {
    g.add("height", "value_noise", { frequency: 0.01, seed: 0 });
    g.add("moisture", "value_noise", { frequency: 0.014, seed: 1 });
    g.add("land", "allowed_rule", { min: 0.4 }, { field: "height" });
    g.add("forest", "allowed_rule", { min: 0.5 }, { field: "moisture", mask: "land" });
    g.add("trees", "place_layer", lp(6, 30, 3, "patches"), { allowed: "forest" });
  });
  addCase("placement", "allowed_mask_chain_inverted", { width: 500, height: 350 }, (g) => {
    g.add("height", "value_noise", { frequency: 0.01, seed: 0 });
    g.add("moisture", "value_noise", { frequency: 0.014, seed: 1 });
    g.add("land", "allowed_rule", { min: 0.4 }, { field: "height" });
    g.add("clearing", "allowed_rule", { min: 0.5, invert: true }, { field: "moisture", mask: "land" });
    g.add("grass", "place_layer", lp(7, 10, 4, "patches"), { allowed: "clearing" });
  });

  // Density-driven radius.
  const densityCase = (short, world, density, layer, opts = {}) =>
    addCase("placement", short, world, (g) => {
      g.add("dens", "value_noise", opts.noise ?? { frequency: 0.008, seed: 0 });
      g.add("spacing", "density", density, { field: "dens" });
      const inputs = { radius: "spacing" };
      if (opts.rule) {
        g.add("height", "value_noise", { frequency: 0.01, seed: 9 });
        g.add("land", "allowed_rule", opts.rule, { field: "height" });
        inputs.allowed = "land";
      }
      g.add("trees", "place_layer", layer, inputs);
    });
  densityCase("density_defaults_patches", { width: 600, height: 400 }, {}, lp(9, 30, 1, "patches"));
  densityCase("density_defaults_random", { width: 600, height: 400 }, {}, lp(9, 30, 2, "random"));
  densityCase("density_point", { width: 600, height: 400 }, {}, lp(9, 30, 3, "point", 300, 200));
  densityCase("density_params", { width: 400, height: 300 }, { min_radius: 4, max_radius: 20, gain: 2, bias: 0.3 },
    lp(4, 30, 4, "patches"));
  densityCase("density_below_layer_radius", { width: 400, height: 300 }, { min_radius: 2, max_radius: 10 },
    lp(6, 30, 5, "patches"));
  densityCase("density_negative_gain", { width: 400, height: 300 }, { min_radius: 5, max_radius: 25, gain: -1.5, bias: 0.5 },
    lp(5, 30, 6, "random"));
  densityCase("density_saturated", { width: 400, height: 300 }, { min_radius: 5, max_radius: 30, gain: 10, bias: -4.5 },
    lp(5, 30, 7, "patches"), { noise: { frequency: 0.02, seed: 2 } });
  densityCase("density_with_allowed", { width: 600, height: 400 }, { min_radius: 5, max_radius: 24 },
    lp(5, 30, 8, "patches"), { rule: { min: 0.45 } });
  densityCase("density_with_allowed_random", { width: 600, height: 400 }, { min_radius: 5, max_radius: 24 },
    lp(5, 30, 9, "random"), { rule: { max: 0.6 } });
  densityCase("density_k1", { width: 500, height: 300 }, { min_radius: 4.5, max_radius: 18.5 }, lp(4.5, 1, 10, "patches"));
  densityCase("density_k50_nonint", { width: 333.3, height: 150.7 }, { min_radius: 3.75, max_radius: 12.25, bias: 0.25 },
    lp(3.75, 50, 11, "random"), { noise: { frequency: 0.05, octaves: 6, seed: -4 } });
  addCase("placement", "density_same_field_as_rule", { width: 500, height: 400 }, (g) => {
    g.add("height", "value_noise", { frequency: 0.01, seed: 12 });
    g.add("land", "allowed_rule", { min: 0.35 }, { field: "height" });
    g.add("spacing", "density", { min_radius: 6, max_radius: 30, gain: 1, bias: 0 }, { field: "height" });
    g.add("trees", "place_layer", lp(6, 30, 13, "patches"), { allowed: "land", radius: "spacing" });
  });

  // Chains on one shared occupancy.
  // layers: [id, params, inputs]; `shared` adds the fields and rules the layers link to.
  const chain = (short, world, layers, shared = () => {}) =>
    addCase("placement", short, world, (g) => {
      shared(g);
      let prev = null;
      for (const [id, params, inputs = {}] of layers) {
        prev = g.add(id, "place_layer", params, prev ? { ...inputs, obstacles: `${prev}.all` } : inputs);
      }
    });
  chain("chain2_rocks_trees", { width: 400, height: 300 }, [
    ["rocks", lp(30, 30, 1, "patches")], ["trees", lp(10, 30, 2, "patches")]]);
  chain("chain3_chests_rocks_trees", { width: 500, height: 350, seed: 4242 }, [
    ["chests", lp(80, 30, 0, "patches")], ["rocks", lp(25, 30, 1, "patches")], ["trees", lp(9, 30, 2, "patches")]]);
  chain("chain4_island", { width: 880, height: 480, seed: 123456 }, [
    ["chests", lp(140, 30, 0, "patches"), { allowed: "land" }],
    ["rocks", lp(34, 30, 1, "patches"), { allowed: "shore" }],
    ["trees", lp(11, 30, 2, "patches"), { allowed: "forest" }],
    ["flowers", lp(6, 30, 3, "patches"), { allowed: "meadow" }]], (g) => {
    g.add("height", "value_noise", { frequency: 0.005, octaves: 5, seed: 0 });
    g.add("moisture", "value_noise", { frequency: 0.007, octaves: 4, seed: 1 });
    g.add("land", "allowed_rule", { min: 0.5 }, { field: "height" });
    g.add("shore", "allowed_rule", { min: 0.45 }, { field: "height" });
    g.add("forest", "allowed_rule", { min: 0.52 }, { field: "moisture", mask: "land" });
    g.add("meadow", "allowed_rule", { max: 0.52 }, { field: "moisture", mask: "land" });
  });
  chain("chain_small_then_big", { width: 300, height: 200 }, [
    ["flowers", lp(6, 30, 1, "patches")], ["boulders", lp(30, 30, 2, "patches")]]);
  chain("chain_small_then_big_random", { width: 300, height: 200 }, [
    ["flowers", lp(5, 30, 3, "random")], ["boulders", lp(25, 30, 4, "random")], ["pebbles", lp(3, 30, 5, "random")]]);
  chain("chain_modes_mixed", { width: 420.5, height: 280.25 }, [
    ["camps", lp(60, 30, 1, "random")], ["rocks", lp(20, 30, 2, "point", 210, 140)], ["bushes", lp(7, 30, 3, "patches")]]);
  chain("chain_random_second_layer", { width: 300, height: 300 }, [
    ["rocks", lp(20, 30, 4, "patches")], ["trees", lp(8, 30, 987654321, "random")]]);
  chain("chain_point_on_occupied", { width: 300, height: 300 }, [
    ["rocks", lp(15, 30, 6, "patches")], ["tree", lp(10, 30, 7, "point", 150, 150)]]);
  chain("chain_same_radius", { width: 300, height: 200 }, [
    ["a", lp(10, 30, 1, "patches")], ["b", lp(10, 30, 1, "patches")], ["c", lp(10, 30, 1, "random")]]);
  chain("chain_seed_extremes", { width: 360, height: 240, seed: 2147483647 }, [
    ["a", lp(24, 30, 1, "patches")], ["b", lp(12, 5, -1, "patches")], ["c", lp(6, 2, -2147483648, "random")]]);
  chain("chain_strip_nonint", { width: 333.3, height: 50 }, [
    ["big", lp(16.5, 30, 1, "patches")], ["mid", lp(7.25, 10, 2, "patches")], ["small", lp(2.5, 30, 3, "patches")]]);
  chain("chain_density_and_rules", { width: 600, height: 400 }, [
    ["rocks", lp(28, 30, 1, "patches"), { allowed: "land" }],
    ["trees", lp(6, 30, 2, "patches"), { allowed: "land", radius: "spacing" }],
    ["grass", lp(4, 10, 3, "random")]], (g) => {
    g.add("height", "value_noise", { frequency: 0.009, seed: 0 });
    g.add("dens", "value_noise", { frequency: 0.02, octaves: 3, seed: 1 });
    g.add("land", "allowed_rule", { min: 0.42 }, { field: "height" });
    g.add("spacing", "density", { min_radius: 6, max_radius: 20 }, { field: "dens" });
  });
  chain("chain_density_first", { width: 500, height: 300 }, [
    ["trees", lp(8, 30, 3, "random"), { radius: "spacing" }], ["shrubs", lp(4, 30, 4, "patches")]], (g) => {
    g.add("dens", "value_noise", { frequency: 0.01, seed: 5 });
    g.add("spacing", "density", { min_radius: 8, max_radius: 32 }, { field: "dens" });
  });
  addCase("placement", "two_independent_chains", { width: 300, height: 200 }, (g) => {
    g.add("a", "place_layer", lp(15, 30, 1, "patches"));
    g.add("b", "place_layer", lp(10, 30, 2, "patches"));
    g.add("c", "place_layer", lp(5, 30, 3, "random"), { obstacles: "a.all" });
  });

  // Varied by our PRNG: single layers, then chains, with rules and density now and then.
  const RADII = [2, 2.5, 3, 4.2, 5, 7.5, 9, 11, 13.37, 16, 20, 24, 33.3, 40, 47.5, 60];
  const KS = [1, 2, 3, 5, 10, 30, 30, 50, 50];
  const randomSeed = () => (rnd.chance(0.35) ? rnd.pick(EDGE_SEEDS) : rnd.int32());
  const randomWorld = (minRadius, budget) => {
    let width = rnd.chance(0.5) ? rnd.int(20, 700) : rnd.range(5, 700, 2);
    let height = rnd.chance(0.5) ? rnd.int(20, 500) : rnd.range(5, 500, 2);
    // Scale the area into [40, budget] times r^2: from a few points to a few thousand.
    const area = width * height;
    const target = Math.min(budget, Math.max(40, area / (minRadius * minRadius))) * minRadius * minRadius;
    if (target !== area) {
      const scale = Math.sqrt(target / area);
      width = round(width * scale, 2);
      height = round(height * scale, 2);
    }
    return { width, height, seed: rnd.chance(0.4) ? rnd.int32() : 0 };
  };
  const randomLayer = (radius, world) => {
    const start = rnd.pick(["patches", "random", "point"]);
    const p = lp(radius, rnd.pick(KS), randomSeed(), start);
    if (start === "point") {
      p.start_x = rnd.chance(0.85) ? rnd.range(0, world.width * 0.999, 3) : rnd.range(-20, world.width + 20, 3);
      p.start_y = rnd.chance(0.85) ? rnd.range(0, world.height * 0.999, 3) : rnd.range(-20, world.height + 20, 3);
    }
    return p;
  };
  const addRule = (g, world) => {
    g.add("height", "value_noise", { frequency: rnd.pick([0.005, 0.01, 0.02, 0.04]), octaves: rnd.int(1, 6), seed: randomSeed() });
    const rule = rnd.pick([{ min: rnd.range(0.3, 0.55, 2) }, { max: rnd.range(0.45, 0.7, 2) },
      { min: rnd.range(0.3, 0.45, 2), max: rnd.range(0.5, 0.7, 2) }]);
    if (rnd.chance(0.3)) rule.invert = true;
    g.add("rule", "allowed_rule", rule, { field: "height" });
    return "rule";
  };
  const addDensity = (g, minR) => {
    g.add("dens", "value_noise", { frequency: rnd.pick([0.004, 0.008, 0.015]), seed: randomSeed() });
    g.add("spacing", "density", { min_radius: minR, max_radius: round(minR * rnd.range(1.5, 4, 2), 2),
      gain: rnd.pick([1, 1.5, 2, -1.5]), bias: rnd.pick([0, 0.25, 0.5]) }, { field: "dens" });
    return "spacing";
  };
  for (let i = 0; i < 28; i++) {
    const radius = rnd.chance(0.6) ? rnd.pick(RADII) : rnd.range(2, 60, 3);
    const world = randomWorld(radius, 3500);
    addCase("placement", `mix_single_${String(i + 1).padStart(2, "0")}`, world, (g) => {
      const inputs = {};
      if (rnd.chance(0.3)) inputs.allowed = addRule(g, world);
      if (rnd.chance(0.25)) inputs.radius = addDensity(g, radius);
      g.add("layer", "place_layer", randomLayer(radius, world), inputs);
    });
  }
  for (let i = 0; i < 12; i++) {
    const count = rnd.int(2, 4);
    const radii = Array.from({ length: count }, () => (rnd.chance(0.6) ? rnd.pick(RADII) : rnd.range(2, 60, 3)));
    if (i % 4 !== 3) radii.sort((a, b) => b - a); // biggest first, except now and then
    const world = randomWorld(Math.min(...radii), 2500);
    addCase("placement", `mix_chain_${String(i + 1).padStart(2, "0")}`, world, (g) => {
      const rule = rnd.chance(0.4) ? addRule(g, world) : null;
      const density = rnd.chance(0.3) ? addDensity(g, radii[radii.length - 1]) : null;
      let prev = null;
      radii.forEach((radius, j) => {
        const inputs = prev ? { obstacles: `${prev}.all` } : {};
        if (rule && rnd.chance(0.6)) inputs.allowed = rule;
        if (density && j === radii.length - 1) inputs.radius = density;
        prev = g.add(`layer${j + 1}`, "place_layer", randomLayer(radius, world), inputs);
      });
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Expected output, self-checks, writing.

const num = (v) => {
  if (typeof v !== "number" || !Number.isFinite(v)) throw new Error(`non-finite value ${v} in expected output`);
  return JSON.stringify(v);
};
const rows = (list) => (list.length ? `[\n${list.map((r) => `[${r.map(num).join(",")}]`).join(",\n")}\n]` : "[]");
const entries = (key, items, what) =>
  `{"${key}": [\n${items.map((it) => `{"node": ${JSON.stringify(it.node)}, "${what}": ${rows(it[what])}}`).join(",\n")}\n]}\n`;

function expectedFor(c) {
  const g = c.graph;
  if (c.subject === "noise") {
    const { values } = evaluate(g);
    const fields = g.nodes.map((n) => ({ node: n.id, samples: c.samples.map(([x, y]) => [x, y, values.get(n.id).field(x, y)]) }));
    return { text: entries("fields", fields, "samples"), count: fields.length * c.samples.length };
  }
  if (c.subject === "threshold") {
    const { values } = evaluate(g);
    const labels = g.nodes.filter((n) => n.type === "threshold").map((n) => {
      const l = values.get(n.id).labels;
      return {
        node: n.id,
        samples: c.samples.map(([x, y]) => {
          const i = l.at(x, y);
          // With three cuts the seed's terrain() must agree (by band position).
          if (l.cuts.length === 3) {
            const band = ["water", "sand", "grass", "rock"].indexOf(S.terrain(l.field(x, y), ...l.cuts));
            if (band !== i) throw new Error(`${g.name}: threshold disagrees with terrain() at ${x}, ${y}`);
          }
          return [x, y, i];
        }),
      };
    });
    return { text: entries("labels", labels, "samples"), count: labels.length * c.samples.length };
  }
  const { layers } = evaluate(g);
  const text = entries("layers", layers, "points");
  const count = layers.reduce((s, l) => s + l.points.length, 0);
  if (count > MAX_CASE_POINTS) throw new Error(`${g.name}: ${count} points, over ${MAX_CASE_POINTS}`);
  if (c.subject === "placement") {
    // The golden result must not depend on the occupancy structure: rerun on buckets.
    const again = entries("layers", evaluate(g, bucketGrid).layers, "points");
    if (again !== text) throw new Error(`${g.name}: result depends on the grid (seed SampleGrid vs buckets)`);
    // A lone random-start layer is exactly seed 000's poissonDisk().
    if (g.nodes.length === 1 && g.param(g.nodes[0], "start") === "random") {
      const n = g.nodes[0];
      const ref = S.poissonDisk(g.world.width, g.world.height, g.param(n, "radius"), g.param(n, "k"), wrap32(g.world.seed, g.param(n, "seed")));
      if (JSON.stringify(ref) !== JSON.stringify(layers[0].points)) throw new Error(`${g.name}: differs from poissonDisk()`);
    }
  }
  return { text, count };
}

// Removes the case folders an earlier run wrote (and nothing else) so renamed cases leave no trace.
function clearOldCases(outDir) {
  for (const subject of SUBJECTS) {
    const dir = path.join(outDir, subject);
    if (!fs.existsSync(dir)) continue;
    for (const entry of fs.readdirSync(dir)) {
      const caseDir = path.join(dir, entry);
      const files = fs.statSync(caseDir).isDirectory() ? fs.readdirSync(caseDir).sort() : null;
      const ours = /^[0-9]{3}_[a-z0-9_]+$/.test(entry) && files && files.every((f) => f === "expected.json" || f === "graph.grove.yaml");
      if (!ours) throw new Error(`refusing to overwrite ${caseDir}: not a golden case folder`);
      fs.rmSync(caseDir, { recursive: true });
    }
  }
}

function main() {
  const outDir = process.argv[2];
  if (!outDir) {
    console.error("usage: node tests/oracle/generate.mjs OUTDIR");
    process.exit(2);
  }
  noiseCases();
  thresholdCases();
  placementCases();
  samplerCases();

  // Compute everything first, so a failing check leaves OUTDIR as it was.
  const outputs = SUBJECTS.flatMap((subject) => cases[subject].map((c) => ({
    rel: `${subject}/${c.dir}`, yaml: graphYaml(c.graph), ...expectedFor(c),
  })));
  // Which seed code computed the data: a changed seed shows up as a changed hash.
  const seeds = { sha256: S.codeSha256, blocks: S.blocks.map((b) => `${b.file} ${b.label}`) };
  // One case per line; count is the number of points (all layers) or of samples (all nodes).
  const manifest = `{"generator": "tests/oracle/generate.mjs",\n"seeds": ${JSON.stringify(seeds)},\n"cases": [\n` +
    outputs.map((o) => JSON.stringify({ path: o.rel, count: o.count })).join(",\n") + "\n]}\n";

  clearOldCases(outDir);
  let bytes = manifest.length;
  for (const o of outputs) {
    const dir = path.join(outDir, o.rel);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "graph.grove.yaml"), o.yaml);
    fs.writeFileSync(path.join(dir, "expected.json"), o.text);
    bytes += o.yaml.length + o.text.length;
  }
  fs.writeFileSync(path.join(outDir, "manifest.json"), manifest);
  const summary = SUBJECTS.map((s) => `${s} ${cases[s].length}`).join(", ");
  console.log(`wrote ${outputs.length} cases (${summary}), ${(bytes / 1e6).toFixed(2)} MB, to ${outDir}`);
}

main();
