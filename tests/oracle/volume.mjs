// The JavaScript reference for place_volume (Bridson in 3D) and 3D value noise, written from the
// description in ../shared/seeds/003_* and the draw order in tests/oracle/README.md, not from
// Grove's C++. Its only seed code is seed 000's SeededRandom (Park-Miller), read through seedjs.mjs.
//
//   node tests/oracle/volume.mjs OUTDIR      writes OUTDIR/volume/NNN_name/{graph.grove.yaml, expected.json}
//   node tests/oracle/volume.mjs --selftest  checks exactLog / exactCbrt against Math.log / Math.cbrt
//
// expected.json: {"volumes": [{"node": id, "points": [[x, y, z, r], ...]}],
//                 "fields3": [{"node": id, "samples": [[x, y, z, value], ...]}]}
import fs from "node:fs";
import path from "node:path";
import { loadSeeds } from "./seedjs.mjs";

const S = loadSeeds();

// ---- ln and cube root from + - * / and sqrt (core/math/ExactLog.h does the same operations in order)
const LN2_HI = 6.93147180369123816490e-01;
const LN2_LO = 1.90821492927058770002e-10;
const SQRT2 = 1.4142135623730951;

export function exactLog(s) {
  if (!(s > 0 && s <= 1.7976931348623157e308)) return s === 0 ? -Infinity : s > 0 ? s : NaN;
  let m = s, e = 0;
  while (m < 1) { m = m * 2; e = e - 1; }
  while (m >= 2) { m = m * 0.5; e = e + 1; }
  if (m > SQRT2) { m = m * 0.5; e = e + 1; }
  const t = (m - 1) / (m + 1);
  const t2 = t * t;
  let p = 1 / 25;
  for (let n = 11; n >= 0; --n) p = p * t2 + 1 / (2 * n + 1);
  return e * LN2_HI + (e * LN2_LO + 2 * t * p);
}

export function exactCbrtUnit(x) {
  let y = 0.4 + 0.6 * x;
  for (let i = 0; i < 6; ++i) y = y - (y * y * y - x) / (3 * (y * y));
  return y;
}

// ---- 3D value noise: seed 002's hash2 with a z term, trilinear smoothstep blend
function hash3(ix, iy, iz, seed) {
  let h = (Math.imul(ix, 374761393) + Math.imul(iy, 668265263) + Math.imul(iz, 2246822519) + Math.imul(seed, 1442695041)) | 0;
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}
const smooth = (t) => t * t * (3 - 2 * t);
const lerp = (a, b, t) => a + (b - a) * t;

function valueNoise3(x, y, z, seed) {
  const ix = Math.floor(x), iy = Math.floor(y), iz = Math.floor(z);
  const fx = smooth(x - ix), fy = smooth(y - iy), fz = smooth(z - iz);
  const lower = lerp(lerp(hash3(ix, iy, iz, seed), hash3(ix + 1, iy, iz, seed), fx),
                     lerp(hash3(ix, iy + 1, iz, seed), hash3(ix + 1, iy + 1, iz, seed), fx), fy);
  const upper = lerp(lerp(hash3(ix, iy, iz + 1, seed), hash3(ix + 1, iy, iz + 1, seed), fx),
                     lerp(hash3(ix, iy + 1, iz + 1, seed), hash3(ix + 1, iy + 1, iz + 1, seed), fx), fy);
  return lerp(lower, upper, fz);
}

function fbm3(x, y, z, seed, octaves, lacunarity, persistence) {
  let sum = 0, norm = 0, amp = 1, freq = 1;
  for (let o = 0; o < octaves; o++) {
    sum += amp * valueNoise3(x * freq, y * freq, z * freq, seed + o * 1013);
    norm += amp; amp *= persistence; freq *= lacunarity;
  }
  return sum / norm;
}

// ---- Bridson in 3D
// An occupancy of Map buckets of side `cell` (unrelated to Grove's r / sqrt(3) grid): a query
// visits every bucket within its radius.
class Buckets {
  constructor(cell) { this.cell = cell; this.map = new Map(); }
  key(i, j, k) { return `${i},${j},${k}`; }
  add(p) {
    const k = this.key(Math.floor(p[0] / this.cell), Math.floor(p[1] / this.cell), Math.floor(p[2] / this.cell));
    if (!this.map.has(k)) this.map.set(k, []);
    this.map.get(k).push(p);
  }
  // no stored q with |q - (x, y, z)| < min(r, q.r)
  isFree(x, y, z, r) {
    const c = this.cell;
    const reach = Math.min(r, 1e9);
    for (let k = Math.floor((z - reach) / c); k <= Math.floor((z + reach) / c); k++)
      for (let j = Math.floor((y - reach) / c); j <= Math.floor((y + reach) / c); j++)
        for (let i = Math.floor((x - reach) / c); i <= Math.floor((x + reach) / c); i++) {
          const list = this.map.get(this.key(i, j, k));
          if (!list) continue;
          for (const q of list) {
            const m = Math.min(r, q[3]);
            const dx = q[0] - x, dy = q[1] - y, dz = q[2] - z;
            if (dx * dx + dy * dy + dz * dz < m * m) return false;
          }
        }
    return true;
  }
}

// opts: {width, height, depth, radius, k, seed, start, startX, startY, startZ, allowed(x,y,z), radiusAt(x,y,z)}
export function placeVolume(o, obstacles) {
  const rng = new S.SeededRandom(o.seed);
  const grid = new Buckets(o.radius * 1.37);
  for (const p of obstacles) grid.add(p);
  const own = [], active = [];
  const tryAdd = (x, y, z) => {
    if (!(x >= 0 && y >= 0 && z >= 0 && x < o.width && y < o.height && z < o.depth)) return false;
    if (!grid.isFree(x, y, z, o.radius)) return false;
    if (o.allowed && !o.allowed(x, y, z)) return false;
    let r = o.radius;
    if (o.radiusAt) {
      const f = o.radiusAt(x, y, z);
      r = o.radius < f ? f : o.radius;
      if (r !== o.radius && !grid.isFree(x, y, z, r)) return false;
    }
    const p = [x, y, z, r];
    grid.add(p); own.push(p); active.push(p);
    return true;
  };
  const gaussianPair = () => {
    let u, v, s;
    do {
      u = rng.nextFloat() * 2 - 1;
      v = rng.nextFloat() * 2 - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const f = Math.sqrt(-2 * exactLog(s) / s);
    return [u * f, v * f];
  };
  if (o.start === "patches") {
    const sp = o.radius * 2;
    for (let z = 0; z < o.depth; z += sp)
      for (let y = 0; y < o.height; y += sp)
        for (let x = 0; x < o.width; x += sp) {
          const w = Math.min(sp, o.width - x), h = Math.min(sp, o.height - y), d = Math.min(sp, o.depth - z);
          for (let i = 0; i < o.k; i++) {
            const px = x + rng.nextFloat() * w;
            const py = y + rng.nextFloat() * h;
            const pz = z + rng.nextFloat() * d;
            if (tryAdd(px, py, pz)) break;
          }
        }
  } else if (o.start === "random") {
    const x = rng.nextFloat() * o.width;
    const y = rng.nextFloat() * o.height;
    const z = rng.nextFloat() * o.depth;
    tryAdd(x, y, z);
  } else {
    tryAdd(o.startX, o.startY, o.startZ);
  }
  while (active.length) {
    const a = Math.floor(rng.nextFloat() * active.length);
    const parent = active[a];
    let placed = false;
    for (let i = 0; i < o.k && !placed; i++) {
      const [gx, gy] = gaussianPair();
      const [gz] = gaussianPair();
      const len = Math.sqrt(gx * gx + gy * gy + gz * gz);
      const dist = 2 * parent[3] * exactCbrtUnit(0.125 + rng.nextFloat() * 0.875);
      placed = tryAdd(parent[0] + gx / len * dist, parent[1] + gy / len * dist, parent[2] + gz / len * dist);
    }
    if (!placed) {
      active[a] = active[active.length - 1];
      active.pop();
    }
  }
  return own;
}

// ---- graphs
const PARAMS = {
  value_noise: ["frequency", "octaves", "lacunarity", "persistence", "seed"],
  allowed_rule: ["min", "max", "invert"],
  density: ["min_radius", "max_radius", "gain", "bias"],
  place_volume: ["radius", "k", "seed", "start", "start_x", "start_y", "start_z"],
};
const INPUTS = { allowed_rule: ["field"], density: ["field"], place_volume: ["obstacles", "allowed", "radius"] };
const DEFAULTS = {
  value_noise: { frequency: 0.01, octaves: 4, lacunarity: 2, persistence: 0.5, seed: 0 },
  allowed_rule: { min: -Infinity, max: Infinity, invert: false },
  density: { min_radius: 9, max_radius: 36, gain: 1.5, bias: 0.5 },
  place_volume: { radius: 20, k: 30, seed: 0, start: "patches", start_x: 0, start_y: 0, start_z: 0 },
};

function yamlGraph(name, world, nodes) {
  const out = ["grove: 1", `name: ${name}`, "world:", `  width: ${world.width}`, `  height: ${world.height}`,
               `  depth: ${world.depth}`, `  seed: ${world.seed}`, "nodes:"];
  for (const n of nodes) {
    out.push(`  ${n.id}:`, `    type: ${n.type}`);
    const ins = (INPUTS[n.type] || []).filter((p) => n.inputs && p in n.inputs);
    if (ins.length) {
      out.push("    inputs:");
      for (const p of ins) out.push(`      ${p}: ${n.inputs[p]}`);
    }
    const ps = PARAMS[n.type].filter((p) => n.params && p in n.params);
    if (ps.length) {
      out.push("    params:");
      for (const p of ps) out.push(`      ${p}: ${String(n.params[p])}`);
    }
  }
  return out.join("\n") + "\n";
}

// Grove's semantics for the nodes a volume case uses; returns node id -> value.
function evaluate(world, nodes) {
  const values = {};
  for (const n of nodes) {
    const p = { ...DEFAULTS[n.type], ...n.params };
    const seed = (world.seed + (p.seed ?? 0)) | 0;
    const inp = (port) => n.inputs && n.inputs[port] !== undefined ? values[n.inputs[port].split(".")[0]] : undefined;
    if (n.type === "value_noise") {
      values[n.id] = (x, y, z) => fbm3(x * p.frequency, y * p.frequency, z * p.frequency, seed, p.octaves, p.lacunarity, p.persistence);
    } else if (n.type === "allowed_rule") {
      const F = inp("field");
      values[n.id] = (x, y, z) => { const f = F(x, y, z); return (p.min <= f && f < p.max) !== p.invert; };
    } else if (n.type === "density") {
      const F = inp("field");
      values[n.id] = (x, y, z) => {
        const t = Math.min(1, Math.max(0, F(x, y, z) * p.gain + p.bias));
        return p.min_radius + t * (p.max_radius - p.min_radius);
      };
    } else if (n.type === "place_volume") {
      const chain = n.inputs && n.inputs.obstacles ? values[n.inputs.obstacles.split(".")[0]].all : [];
      const own = placeVolume({ width: world.width, height: world.height, depth: world.depth, radius: p.radius, k: p.k,
                                seed, start: p.start, startX: p.start_x, startY: p.start_y, startZ: p.start_z,
                                allowed: inp("allowed"), radiusAt: inp("radius") }, chain);
      values[n.id] = { own, all: chain.concat(own) };
    }
  }
  return values;
}

const cases = [];
const vol = (id, params, inputs) => ({ id, type: "place_volume", params: { seed: 0, ...params }, inputs });
function addCase(name, world, nodes, samples) { cases.push({ name, world, nodes, samples }); }

function buildCases() {
  const W = (width, height, depth, seed = 0) => ({ width, height, depth, seed });
  addCase("patches_r20", W(200, 150, 100), [vol("rocks", { radius: 20, k: 30, start: "patches" })]);
  addCase("patches_r12_seed7", W(160, 120, 90, 7), [vol("rocks", { radius: 12, k: 30, start: "patches" })]);
  addCase("patches_k1", W(120, 120, 120), [vol("rocks", { radius: 10, k: 1, start: "patches", seed: 3 })]);
  addCase("patches_k5_nonint", W(123.5, 77.25, 60.75), [vol("rocks", { radius: 9.5, k: 5, start: "patches", seed: 11 })]);
  addCase("random_r15", W(200, 200, 100), [vol("rocks", { radius: 15, k: 30, start: "random", seed: 1 })]);
  addCase("random_k10_seed_neg", W(150, 100, 150), [vol("rocks", { radius: 11, k: 10, start: "random", seed: -5 })]);
  addCase("random_k50_thin_slab", W(300, 200, 12), [vol("rocks", { radius: 10, k: 50, start: "random", seed: 9 })]);
  addCase("point_center", W(150, 150, 150), [vol("rocks", { radius: 14, k: 30, start: "point", start_x: 75, start_y: 75, start_z: 75, seed: 2 })]);
  addCase("point_outside_empty", W(100, 100, 100), [vol("rocks", { radius: 14, k: 30, start: "point", start_x: 50, start_y: 50, start_z: 100 })]);
  addCase("world_seed_wraps", W(100, 80, 60, 2147483647), [vol("rocks", { radius: 8, k: 30, start: "random", seed: 5 })]);
  addCase("obstacles_chain", W(200, 150, 100, 4), [
    vol("asteroids", { radius: 25, k: 30, start: "patches", seed: 1 }),
    vol("debris", { radius: 8, k: 20, start: "patches", seed: 2 }, { obstacles: "asteroids.all" }),
  ]);
  addCase("obstacles_chain_random", W(160, 160, 80), [
    vol("big", { radius: 18, k: 30, start: "random", seed: 21 }),
    vol("small", { radius: 9, k: 30, start: "random", seed: 22 }, { obstacles: "big.all" }),
  ]);
  addCase("allowed_3d_noise", W(200, 160, 120), [
    { id: "caves", type: "value_noise", params: { frequency: 0.02, octaves: 3, seed: 5 } },
    { id: "hollow", type: "allowed_rule", params: { min: 0.5 }, inputs: { field: "caves" } },
    vol("crystals", { radius: 10, k: 30, start: "patches", seed: 3 }, { allowed: "hollow" }),
  ], [["caves", 200, 160, 120]]);
  addCase("allowed_obstacles_random", W(180, 140, 100, 12), [
    { id: "caves", type: "value_noise", params: { frequency: 0.015, octaves: 2, seed: 1 } },
    { id: "hollow", type: "allowed_rule", params: { max: 0.55 }, inputs: { field: "caves" } },
    vol("big", { radius: 20, k: 30, start: "patches", seed: 1 }, { allowed: "hollow" }),
    vol("small", { radius: 9, k: 30, start: "random", seed: 2 }, { obstacles: "big.all", allowed: "hollow" }),
  ]);
  addCase("density_3d_noise", W(200, 150, 100), [
    { id: "noise", type: "value_noise", params: { frequency: 0.03, octaves: 2, seed: 8 } },
    { id: "spacing", type: "density", params: { min_radius: 8, max_radius: 20, gain: 1.5, bias: -0.3 }, inputs: { field: "noise" } },
    vol("rocks", { radius: 8, k: 30, start: "patches", seed: 4 }, { radius: "spacing" }),
  ]);
  addCase("noise3_samples", W(100, 100, 100, -3), [
    { id: "n1", type: "value_noise", params: { frequency: 0.1, octaves: 1, seed: 0 } },
    { id: "n4", type: "value_noise", params: { frequency: 0.37, octaves: 5, lacunarity: 2.5, persistence: 0.6, seed: 2147483647 } },
  ], [["n1", 0, 0, 0], ["n4", 0, 0, 0]]);
}

// Sample points of a 3D field: a lattice, negatives, lattice planes and their neighbours, big values.
function samplePoints(w, h, d) {
  const out = [];
  let state = 12345;
  const rnd = () => (state = (state * 16807) % 2147483647) / 2147483647;
  for (let i = 0; i < 60; i++) out.push([rnd() * w, rnd() * h, rnd() * d]);
  const specials = [0, -0.5, 10, 10 + 2 ** -40, 10 - 2 ** -40, -1e6 - 0.25, 1e9 + 0.5, 12345.678];
  for (const a of specials) for (const b of [0, 7.5, -3.25]) out.push([a, b, a * 0.5 + b], [b, a, a], [b, b, a]);
  return out;
}

function run(outDir) {
  buildCases();
  const outputs = cases.map((c, i) => {
    const dir = `${String(i + 1).padStart(3, "0")}_${c.name}`;
    const values = evaluate(c.world, c.nodes);
    const parts = [];
    const vols = c.nodes.filter((n) => n.type === "place_volume");
    if (vols.length)
      parts.push(`"volumes": [\n` + vols.map((n) => `{"node": "${n.id}", "points": [` +
        values[n.id].own.map((p) => JSON.stringify(p)).join(",\n") + "]}").join(",\n") + "]");
    if (c.samples) {
      const f3 = [];
      for (const [id] of c.samples) {
        const F = values[id];
        const pts = samplePoints(...c.samples.find((s) => s[0] === id).slice(1)).map(([x, y, z]) => [x, y, z, F(x, y, z)]);
        for (const s of pts) if (!s.every(Number.isFinite)) throw new Error(`${dir}: non-finite sample`);
        f3.push(`{"node": "${id}", "samples": [` + pts.map((s) => JSON.stringify(s)).join(",\n") + "]}");
      }
      parts.push(`"fields3": [\n` + f3.join(",\n") + "]");
    }
    for (const n of vols) {
      const pts = values[n.id].own;
      if (pts.length > 15000) throw new Error(`${dir}: ${pts.length} points, too many for a golden`);
      // self-check: no two points of the chain closer than the smaller radius (brute force)
      const all = values[n.id].all;
      for (let a = 0; a < all.length; a++)
        for (let b = a + 1; b < all.length; b++) {
          const m = Math.min(all[a][3], all[b][3]);
          const dx = all[a][0] - all[b][0], dy = all[a][1] - all[b][1], dz = all[a][2] - all[b][2];
          if (dx * dx + dy * dy + dz * dz < m * m) throw new Error(`${dir}: points ${a} and ${b} too close`);
        }
    }
    return { dir, yaml: yamlGraph(`volume ${dir}`, c.world, c.nodes), json: "{" + parts.join(",\n") + "}\n",
             count: vols.map((n) => values[n.id].own.length) };
  });
  const base = path.join(outDir, "volume");
  if (fs.existsSync(base))
    for (const entry of fs.readdirSync(base)) {
      const caseDir = path.join(base, entry);
      const files = fs.statSync(caseDir).isDirectory() ? fs.readdirSync(caseDir) : null;
      if (!/^[0-9]{3}_[a-z0-9_]+$/.test(entry) || !files || !files.every((f) => f === "expected.json" || f === "graph.grove.yaml"))
        throw new Error(`refusing to overwrite ${caseDir}: not a golden case folder`);
      fs.rmSync(caseDir, { recursive: true });
    }
  for (const o of outputs) {
    fs.mkdirSync(path.join(base, o.dir), { recursive: true });
    fs.writeFileSync(path.join(base, o.dir, "graph.grove.yaml"), o.yaml);
    fs.writeFileSync(path.join(base, o.dir, "expected.json"), o.json);
  }
  console.log(`wrote ${outputs.length} volume cases to ${base}: ` + outputs.map((o) => `${o.dir} ${o.count.join("+")}`).join(", "));
}

function selftest() {
  let worstLog = 0, worstCbrt = 0;
  for (let i = 1; i <= 200000; i++) {
    const s = i / 200001;
    const a = exactLog(s), b = Math.log(s);
    worstLog = Math.max(worstLog, Math.abs(a - b) / Math.abs(b));
    const x = 0.125 + (i / 200001) * 0.875;
    worstCbrt = Math.max(worstCbrt, Math.abs(exactCbrtUnit(x) - Math.cbrt(x)) / Math.cbrt(x));
  }
  console.log(`exactLog worst relative difference from Math.log ${worstLog.toExponential(2)}, exactCbrtUnit from Math.cbrt ${worstCbrt.toExponential(2)}`);
  if (worstLog > 1e-15 || worstCbrt > 1e-15) process.exit(1);
}

if (process.argv[2] === "--selftest") selftest();
else if (process.argv[2]) run(process.argv[2]);
else { console.error("usage: node tests/oracle/volume.mjs OUTDIR | --selftest"); process.exit(2); }
