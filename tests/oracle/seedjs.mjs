// Loads the bit-exact reference JavaScript out of the seed documents at run time.
//
// The seeds (../shared/seeds, or $GROVE_SEEDS_DIR) are the specification; their code is never
// copied into the repository. This module cuts the JavaScript blocks out of the text, runs them
// in one `vm` context and hands back the seed functions for the golden-data generator.
//
//   000_*.txt  Poisson-disk tutorial, steps 1-6: each step's JavaScript runs from its
//              "/*\n  Step N: ..." header comment to the end of its "/*\n  Explanation: ... */"
//              comment (the C#, C++ and pseudocode versions follow and are not read).
//   002_*.txt  Noise note: from "function hash2" to the end of "function terrain".
//
// Everything fails loudly: a missing seed file, step, marker or function throws.

import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, "..", "..");

const POISSON_STEPS = [
  { step: 1, names: ["SeededRandom", "randomPoints", "jitteredGrid"] },
  { step: 2, names: ["isFarFromAll", "dartThrowing"] },
  { step: 3, names: ["SampleGrid"] },
  { step: 4, names: ["PoissonSampler", "poissonDisk"] },
  { step: 5, names: ["densityRadius", "poissonVariable"] }, // loaded, never called (needs Simplex)
  { step: 6, names: ["placeLayer"] },
];
const NOISE_NAMES = ["hash2", "valueNoise", "fbm", "terrain"];

export const EXPORTED_NAMES = [
  "SeededRandom", "randomPoints", "jitteredGrid", "dartThrowing", "SampleGrid",
  "PoissonSampler", "poissonDisk", "placeLayer", "hash2", "valueNoise", "fbm", "terrain",
];

export function seedsDir() {
  return process.env.GROVE_SEEDS_DIR
    ? path.resolve(process.env.GROVE_SEEDS_DIR)
    : path.resolve(repoRoot, "..", "shared", "seeds");
}

function seedFile(dir, prefix) {
  let entries;
  try {
    entries = fs.readdirSync(dir);
  } catch (e) {
    throw new Error(`seedjs: cannot read the seeds folder ${dir} (set GROVE_SEEDS_DIR): ${e.message}`);
  }
  const hits = entries.filter((f) => f.startsWith(prefix) && f.endsWith(".txt")).sort();
  if (hits.length !== 1) {
    throw new Error(`seedjs: expected exactly one ${prefix}*.txt in ${dir}, found ${hits.length}`);
  }
  // The seeds may use CRLF; the markers below are written with "\n".
  return { name: hits[0], text: fs.readFileSync(path.join(dir, hits[0]), "utf8").replace(/\r\n/g, "\n") };
}

function must(index, what, file) {
  if (index < 0) throw new Error(`seedjs: ${file}: cannot find ${what}`);
  return index;
}

function checkDefines(code, names, where) {
  for (const name of names) {
    const re = new RegExp(`^(?:class|function)\\s+${name}\\b`, "m");
    if (!re.test(code)) throw new Error(`seedjs: ${where}: the extracted code does not define ${name}`);
  }
}

// One step of the Poisson tutorial: header comment, code, explanation comment.
function extractPoissonStep(file, step, names) {
  const header = new RegExp(`^/\\*\\n[ \\t]*Step ${step}:`, "m");
  const m = header.exec(file.text);
  const start = must(m ? m.index : -1, `the "/*  Step ${step}:" comment`, file.name);
  const explanation = must(file.text.indexOf("/*\n  Explanation:", start), `step ${step}'s Explanation comment`, file.name);
  const close = must(file.text.indexOf("*/", explanation), `the end of step ${step}'s Explanation comment`, file.name);
  const code = file.text.slice(start, close + 2) + "\n";
  checkDefines(code, names, `${file.name} step ${step}`);
  return { file: file.name, label: `step ${step}`, code };
}

function extractNoise(file) {
  const start = must(file.text.search(/^function hash2\b/m), '"function hash2"', file.name);
  const terrainRe = /^function terrain\b/m;
  const terrainAt = must(file.text.slice(start).search(terrainRe), '"function terrain"', file.name) + start;
  // The function ends at the first line that is a lone "}" after its header.
  const endRe = /^\}[ \t]*$/m;
  const rest = file.text.slice(terrainAt);
  const end = must(rest.search(endRe), "the closing brace of terrain()", file.name) + terrainAt;
  const code = file.text.slice(start, end + 1) + "\n";
  checkDefines(code, NOISE_NAMES, file.name);
  return { file: file.name, label: "noise", code };
}

export function extractSeedCode(dir = seedsDir()) {
  const poisson = seedFile(dir, "000_");
  const noise = seedFile(dir, "002_");
  const blocks = POISSON_STEPS.map(({ step, names }) => extractPoissonStep(poisson, step, names));
  blocks.push(extractNoise(noise));
  return blocks;
}

// Harness code run inside the seed context after the seed blocks (this is ours, not the seeds').
// placeLayer() builds its PoissonSampler itself, so a wired radius input cannot be set from
// outside. We rebind the global PoissonSampler (a class binding, so assignable) to a subclass
// whose constructor takes a one-shot pending radiusAt; placeLayer's loop stays the seed's own.
const SHIM = `
PoissonSampler = (function (SeedPoissonSampler) {
  let pendingRadiusAt = null;
  class GrovePoissonSampler extends SeedPoissonSampler {
    constructor(grid, radius, k, seed) {
      super(grid, radius, k, seed);
      if (pendingRadiusAt) {
        this.radiusAt = pendingRadiusAt;   // set before placeLayer reads or uses the sampler
        pendingRadiusAt = null;            // one sampler only
      }
    }
    static withRadiusAt(radiusAt, run) {
      pendingRadiusAt = radiusAt;
      try {
        return run();
      } finally {
        const unused = pendingRadiusAt !== null;
        pendingRadiusAt = null;
        if (radiusAt && unused) throw new Error("grove shim: no PoissonSampler picked up radiusAt");
      }
    }
  }
  return GrovePoissonSampler;
})(PoissonSampler);
`;

export function loadSeeds(dir = seedsDir()) {
  const blocks = extractSeedCode(dir);
  const context = vm.createContext({});
  for (const b of blocks) {
    try {
      vm.runInContext(b.code, context, { filename: `${b.file} (${b.label})` });
    } catch (e) {
      throw new Error(`seedjs: evaluating ${b.file} ${b.label} failed: ${e.stack || e}`);
    }
  }
  vm.runInContext(SHIM, context, { filename: "grove-seed-shim" });
  // Class declarations live in the context's lexical scope, not on its global object: read them
  // back with an expression evaluated inside the context.
  const api = {};
  for (const name of EXPORTED_NAMES) {
    let value;
    try {
      value = vm.runInContext(name, context);
    } catch (e) {
      throw new Error(`seedjs: the seed code does not define ${name}: ${e.message}`);
    }
    if (typeof value !== "function") throw new Error(`seedjs: ${name} is a ${typeof value}, not a function`);
    api[name] = value;
  }
  const hash = createHash("sha256");
  for (const b of blocks) hash.update(b.code);
  return {
    ...api,
    blocks,
    codeSha256: hash.digest("hex"),
    // placeLayer(grid, radius, k, seed, allowed) with the sampler's radiusAt preset.
    placeLayerWithRadius(grid, radius, k, seed, allowed, radiusAt) {
      return api.PoissonSampler.withRadiusAt(radiusAt, () => api.placeLayer(grid, radius, k, seed, allowed));
    },
  };
}
