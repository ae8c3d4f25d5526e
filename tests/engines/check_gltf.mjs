// Holds a Grove .glb to readers Grove did not write: the Khronos glTF-Validator (0 errors, 0
// warnings) and glTF-Transform, whose instance counts and translations must match Grove's own
// grove.points JSON export of the same graph.
// usage: node check_gltf.mjs EXPORT.glb POINTS.json
import { readFileSync } from 'node:fs';
import validator from 'gltf-validator';
import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';

const [glbPath, jsonPath] = process.argv.slice(2);
const fail = (msg) => { console.error(`${glbPath}: ${msg}`); process.exit(1); };
const bytes = new Uint8Array(readFileSync(glbPath));
const points = JSON.parse(readFileSync(jsonPath, 'utf8'));

const report = await validator.validateBytes(bytes, { maxIssues: 50 });
const issues = report.issues;
for (const m of issues.messages)
  if (m.severity <= 1) console.error(`  ${m.severity === 0 ? 'error' : 'warning'} ${m.code} ${m.pointer ?? ''}: ${m.message}`);
if (issues.numErrors !== 0 || issues.numWarnings !== 0)
  fail(`glTF-Validator: ${issues.numErrors} errors, ${issues.numWarnings} warnings`);

const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
const doc = await io.readBinary(bytes);
// what the JSON export says each layer and type holds, in the layer's order
const expected = new Map(), tagsOf = new Map();
for (const layer of points.layers)
  for (const p of layer.points) {
    const key = `${layer.name}/${layer.types[p.t].name}`;
    if (!expected.has(key)) expected.set(key, []);
    expected.get(key).push(p);
    tagsOf.set(key, layer.tags);
  }
let instances = 0, attributeValues = 0, tagged = 0;
const seen = new Set();
for (const node of doc.getRoot().listNodes()) {
  const inst = node.getExtension('EXT_mesh_gpu_instancing');
  if (!inst) fail(`node ${node.getName()} has no EXT_mesh_gpu_instancing`);
  const want = expected.get(node.getName());
  if (!want) fail(`node ${node.getName()} is no layer/type of the JSON export`);
  // a tagged layer's tags in each of its nodes' extras, and no tags on the others
  if (JSON.stringify(node.getExtras().tags) !== JSON.stringify(tagsOf.get(node.getName())))
    fail(`${node.getName()}: extras tags ${JSON.stringify(node.getExtras().tags)}, the JSON export has ${JSON.stringify(tagsOf.get(node.getName()))}`);
  if (tagsOf.get(node.getName())) tagged++;
  const t = inst.getAttribute('TRANSLATION'), r = inst.getAttribute('ROTATION'), s = inst.getAttribute('SCALE');
  if (t.getCount() !== want.length || r.getCount() !== want.length || s.getCount() !== want.length)
    fail(`${node.getName()}: ${t.getCount()} instances, the JSON export has ${want.length}`);
  const v = [0, 0, 0], q = [0, 0, 0, 0], sc = [0, 0, 0];
  for (let i = 0; i < want.length; i++) {
    t.getElement(i, v);
    r.getElement(i, q);
    s.getElement(i, sc);
    const p = want[i];
    if (v[0] !== Math.fround(p.x) || v[1] !== Math.fround(p.z ?? 0) || v[2] !== Math.fround(p.y))
      fail(`${node.getName()}[${i}]: translation ${v} for point (${p.x}, ${p.y})`);
    // rotation about +Y by -rot degrees (Grove's clockwise seen from above, y down -> +Z)
    const half = (-p.rot * Math.PI) / 360;
    if (q[0] !== 0 || q[2] !== 0 || Math.abs(q[1] - Math.sin(half)) > 1e-6 || Math.abs(q[3] - Math.cos(half)) > 1e-6)
      fail(`${node.getName()}[${i}]: rotation ${q} for rot ${p.rot}`);
    if (sc.some((c) => c !== Math.fround(p.s))) fail(`${node.getName()}[${i}]: scale ${sc} for s ${p.s}`);
  }
  // the layer's attributes as custom instance attributes `_NAME`, float32 a point
  for (const name of Object.keys(want[0].attributes ?? {})) {
    const a = inst.getAttribute(`_${name.toUpperCase()}`);
    if (!a || a.getType() !== 'SCALAR' || a.getComponentType() !== 5126 || a.getCount() !== want.length)
      fail(`${node.getName()}: no float SCALAR _${name.toUpperCase()} of ${want.length} instances`);
    for (let i = 0; i < want.length; i++)
      if (a.getScalar(i) !== Math.fround(want[i].attributes[name]))
        fail(`${node.getName()}[${i}]: _${name.toUpperCase()} ${a.getScalar(i)} for ${want[i].attributes[name]}`);
    attributeValues += want.length;
  }
  instances += want.length;
  seen.add(node.getName());
}
for (const key of expected.keys()) if (!seen.has(key)) fail(`no node for ${key}`);
const total = points.layers.reduce((n, l) => n + l.count, 0);
if (instances !== total) fail(`${instances} instances in all, the JSON export has ${total} points`);
console.log(`${glbPath}: glTF-Validator 0 errors 0 warnings; glTF-Transform reads ${doc.getRoot().listNodes().length} instanced nodes, ${instances} instances, every translation, rotation and scale, ${attributeValues} attribute values as exported, ${tagged} tagged nodes`);
