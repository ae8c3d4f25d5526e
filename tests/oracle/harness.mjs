// The oracle's harness: the seeds loaded, a PRNG for choosing parameters, neighbouring doubles,
// the part of the node catalog the cases use, YAML for a case's graph, and Grove's semantics
// evaluated over the seed functions (generate.mjs builds the cases and writes them).

import { loadSeeds } from "./seedjs.mjs";

export const S = loadSeeds();
export const SUBJECTS = ["noise", "threshold", "placement", "samplers"];
export const MAX_CASE_POINTS = 15000;

// ---------------------------------------------------------------------------------------------
// Our own small PRNG for choosing parameters (mulberry32, seeded by a string).

export function prng(label) {
  let h = 2166136261;
  for (const ch of label) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  let a = h >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    float: next,
    range: (lo, hi, decimals = 3) => round(lo + (hi - lo) * next(), decimals),
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    int32: () => (Math.floor(next() * 4294967296) | 0),
    chance: (p) => next() < p,
  };
}

export function round(v, decimals) {
  const f = 10 ** decimals;
  return Math.round(v * f) / f + 0; // + 0 turns -0 into 0, which YAML and JSON would print as 0 anyway
}

// Neighbouring doubles, for lattice lines and map edges.
export const f64 = new Float64Array(1);
export const u64 = new BigUint64Array(f64.buffer);
export function nextUp(x) {
  if (x === 0) return Number.MIN_VALUE;
  f64[0] = x;
  u64[0] += x > 0 ? 1n : -1n;
  return f64[0];
}
export function nextDown(x) {
  return -nextUp(-x);
}

// ---------------------------------------------------------------------------------------------
// The part of the node catalog (spec/nodes.md) the cases use. Param order is catalog order;
// `undefined` means the catalog gives no default, so a case must set it.

export const CATALOG = {
  value_noise: { inputs: [], outputs: ["field"], seeded: true,
    params: { frequency: 0.01, octaves: 4, lacunarity: 2, persistence: 0.5, seed: 0 } },
  threshold: { inputs: ["field"], outputs: ["labels"],
    params: { cuts: [0.35, 0.45, 0.7], labels: ["water", "sand", "grass", "rock"] } },
  allowed_rule: { inputs: ["field", "labels", "mask"], outputs: ["mask"],
    params: { min: -Infinity, max: Infinity, include: [], invert: false } },
  density: { inputs: ["field"], outputs: ["field"],
    params: { min_radius: 9, max_radius: 36, gain: 1.5, bias: 0.5 } },
  place_layer: { inputs: ["obstacles", "allowed", "radius"], outputs: ["points", "all"], seeded: true,
    params: { radius: 20, k: 30, seed: 0, start: "patches", start_x: undefined, start_y: undefined } },
  random_points: { inputs: [], outputs: ["points"], seeded: true, params: { count: undefined, seed: 0 } },
  jittered_grid: { inputs: [], outputs: ["points"], seeded: true, params: { spacing: undefined, seed: 0 } },
  dart_throwing: { inputs: [], outputs: ["points"], seeded: true,
    params: { radius: undefined, max_misses: undefined, seed: 0 } },
};

export const ID_RE = /^[a-z][a-z0-9_]*$/;

export class Graph {
  constructor(name, world) {
    this.name = name;
    this.world = { width: world.width, height: world.height, seed: world.seed ?? 0 };
    this.nodes = [];
  }

  add(id, type, params = {}, inputs = {}) {
    const def = CATALOG[type];
    if (!def) throw new Error(`${this.name}: unknown type ${type}`);
    if (!ID_RE.test(id) || this.node(id)) throw new Error(`${this.name}: bad or duplicate id ${id}`);
    for (const p of Object.keys(params)) if (!(p in def.params)) throw new Error(`${this.name}: ${type} has no param ${p}`);
    for (const [port, src] of Object.entries(inputs)) {
      if (!def.inputs.includes(port)) throw new Error(`${this.name}: ${type} has no input ${port}`);
      const [srcId, srcPort] = src.split(".");
      const from = this.node(srcId);
      if (!from) throw new Error(`${this.name}: ${id}.${port} links to ${srcId}, which is not placed before it`);
      if (srcPort && !CATALOG[from.type].outputs.includes(srcPort)) throw new Error(`${this.name}: no port ${src}`);
    }
    // Seeded nodes always carry an explicit seed.
    const explicit = def.seeded ? { seed: 0, ...params } : { ...params };
    for (const [p, d] of Object.entries(def.params)) {
      if (d === undefined && !(p in explicit) && !(type === "place_layer" && p.startsWith("start_"))) {
        throw new Error(`${this.name}: ${id}.${p} has no default and must be set`);
      }
    }
    this.nodes.push({ id, type, params: explicit, inputs });
    return id;
  }

  node(id) {
    return this.nodes.find((n) => n.id === id);
  }

  param(n, p) {
    return p in n.params ? n.params[p] : CATALOG[n.type].params[p];
  }
}

// ---------------------------------------------------------------------------------------------
// YAML (formats.md section 1): keys in the documented order, params and inputs in catalog order.

export function yamlScalar(v) {
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new Error(`non-finite number ${v} in a graph`);
    return String(v);
  }
  if (typeof v === "boolean") return String(v);
  if (typeof v === "string") {
    if (!ID_RE.test(v) || /^(y|n|yes|no|on|off|true|false|null)$/.test(v)) throw new Error(`unsafe YAML string ${v}`);
    return v;
  }
  if (Array.isArray(v)) return `[${v.map(yamlScalar).join(", ")}]`;
  throw new Error(`cannot write ${typeof v} to YAML`);
}

export function graphYaml(g) {
  const out = ["grove: 1", `name: ${g.name}`, "world:"];
  out.push(`  width: ${yamlScalar(g.world.width)}`, `  height: ${yamlScalar(g.world.height)}`, `  seed: ${yamlScalar(g.world.seed)}`);
  out.push("nodes:");
  for (const n of g.nodes) {
    const def = CATALOG[n.type];
    out.push(`  ${n.id}:`, `    type: ${n.type}`);
    const ports = def.inputs.filter((p) => p in n.inputs);
    if (ports.length) {
      out.push("    inputs:");
      for (const p of ports) out.push(`      ${p}: ${n.inputs[p]}`);
    }
    const params = Object.keys(def.params).filter((p) => p in n.params);
    if (params.length) {
      out.push("    params:");
      for (const p of params) out.push(`      ${p}: ${yamlScalar(n.params[p])}`);
    }
  }
  return out.join("\n") + "\n";
}

// ---------------------------------------------------------------------------------------------
// Evaluation: Grove's semantics over the seed functions.

export const wrap32 = (a, b) => (a + b) | 0;

// An occupancy written for the cross-check only: unbounded buckets (no one-point-per-cell rule)
// and a cell size unrelated to the radii. It has the interface placeLayer and PoissonSampler use.
export class BucketGrid {
  constructor(width, height, cellSize) {
    this.width = width;
    this.height = height;
    this.cellSize = cellSize;
    this.buckets = new Map();
    this.points = [];
  }

  key(c, r) {
    return c * 1048576 + r;
  }

  add(x, y, radius) {
    const k = this.key(Math.floor(x / this.cellSize), Math.floor(y / this.cellSize));
    if (!this.buckets.has(k)) this.buckets.set(k, []);
    this.buckets.get(k).push(this.points.length);
    this.points.push([x, y, radius]);
  }

  isFree(x, y, radius) {
    const cs = this.cellSize;
    for (let c = Math.floor((x - radius) / cs) - 1; c <= Math.floor((x + radius) / cs) + 1; c++) {
      for (let r = Math.floor((y - radius) / cs) - 1; r <= Math.floor((y + radius) / cs) + 1; r++) {
        for (const i of this.buckets.get(this.key(c, r)) ?? []) {
          const [px, py, pr] = this.points[i];
          const m = Math.min(radius, pr);
          const dx = px - x;
          const dy = py - y;
          if (dx * dx + dy * dy < m * m) return false;
        }
      }
    }
    return true;
  }
}

export const seedGrid = (w, h, minRadius) => new S.SampleGrid(w, h, minRadius / Math.sqrt(2));
export const bucketGrid = (w, h, minRadius) => new BucketGrid(w, h, minRadius * 1.7);

export function evaluate(g, makeGrid = seedGrid) {
  const { width, height } = g.world;
  const values = new Map();
  const layers = [];
  const minRadius = Math.min(...g.nodes.filter((n) => n.type === "place_layer").map((n) => g.param(n, "radius")));

  for (const n of g.nodes) {
    const P = (p) => g.param(n, p);
    const input = (port) => {
      const src = n.inputs[port];
      if (!src) return null;
      const [id, p] = src.split(".");
      const outs = values.get(id);
      return outs[p ?? Object.keys(outs)[0]];
    };
    const seed = () => wrap32(g.world.seed, P("seed"));
    let outs;
    switch (n.type) {
      case "value_noise": {
        const [f, o, l, pe, s] = [P("frequency"), P("octaves"), P("lacunarity"), P("persistence"), seed()];
        outs = { field: (x, y) => S.fbm(x * f, y * f, s, o, l, pe) };
        break;
      }
      case "threshold": {
        const field = input("field");
        const cuts = P("cuts");
        const names = P("labels");
        if (names.length !== cuts.length + 1) throw new Error(`${g.name}: ${n.id}: labels must be cuts + 1 long`);
        const at = (x, y) => {
          const F = field(x, y);
          for (let i = 0; i < cuts.length; i++) if (F < cuts[i]) return i;
          return cuts.length;
        };
        outs = { labels: { at, names, field, cuts } };
        break;
      }
      case "allowed_rule": {
        const field = input("field");
        const labels = input("labels");
        const mask = input("mask");
        const [min, max, invert] = [P("min"), P("max"), P("invert")];
        const include = new Set(P("include").map((name) => {
          const i = labels ? labels.names.indexOf(name) : -1;
          if (i < 0) throw new Error(`${g.name}: ${n.id}: include names ${name}, which its labels do not have`);
          return i;
        }));
        outs = {
          mask: (x, y) => {
            let ok = true;
            if (field) {
              const F = field(x, y);
              ok = min <= F && F < max;
            }
            if (ok && labels) ok = include.has(labels.at(x, y));
            if (ok && mask) ok = mask(x, y);
            return invert ? !ok : ok;
          },
        };
        break;
      }
      case "density": {
        // Seed 000 step 5's densityRadius(), with the field and the four numbers as params.
        const field = input("field");
        const [minR, maxR, gain, bias] = [P("min_radius"), P("max_radius"), P("gain"), P("bias")];
        outs = {
          field: (x, y) => {
            const t = Math.min(1, Math.max(0, field(x, y) * gain + bias));
            return minR + t * (maxR - minR);
          },
        };
        break;
      }
      case "place_layer": {
        const obstacles = input("obstacles");
        let grid;
        if (obstacles) {
          if (obstacles.used) throw new Error(`${g.name}: ${n.id}: a layer's .all feeds only one layer here`);
          obstacles.used = true;
          grid = obstacles.grid;
        } else {
          grid = makeGrid(width, height, minRadius);
        }
        const allowed = input("allowed");
        const radiusAt = input("radius");
        const [radius, k, start] = [P("radius"), P("k"), P("start")];
        let points;
        if (start === "patches") {
          points = S.placeLayerWithRadius(grid, radius, k, seed(), allowed, radiusAt);
        } else {
          const sampler = new S.PoissonSampler(grid, radius, k, seed());
          sampler.allowed = allowed;
          sampler.radiusAt = radiusAt;
          if (start === "random") {
            const x = sampler.random.nextFloat() * grid.width;   // seed 000's poissonDisk
            const y = sampler.random.nextFloat() * grid.height;
            sampler.tryAdd(x, y);
          } else if (start === "point") {
            if (P("start_x") === undefined || P("start_y") === undefined) throw new Error(`${g.name}: ${n.id}: start point unset`);
            sampler.tryAdd(P("start_x"), P("start_y"));
          } else {
            throw new Error(`${g.name}: ${n.id}: bad start ${start}`);
          }
          while (sampler.step()) {}
          points = sampler.points;
        }
        outs = { points, all: { grid, used: false } };
        layers.push({ node: n.id, points: points.map(([x, y, r]) => [x, y, r]) });
        break;
      }
      case "random_points":
        outs = { points: S.randomPoints(P("count"), width, height, seed()).map(([x, y]) => [x, y, 0]) };
        layers.push({ node: n.id, points: outs.points });
        break;
      case "jittered_grid":
        outs = { points: S.jitteredGrid(P("spacing"), width, height, seed()).map(([x, y]) => [x, y, 0]) };
        layers.push({ node: n.id, points: outs.points });
        break;
      case "dart_throwing": {
        const r = P("radius");
        outs = { points: S.dartThrowing(width, height, r, P("max_misses"), seed()).map(([x, y]) => [x, y, r]) };
        layers.push({ node: n.id, points: outs.points });
        break;
      }
      default:
        throw new Error(`no evaluator for ${n.type}`);
    }
    values.set(n.id, outs);
  }
  return { values, layers };
}
