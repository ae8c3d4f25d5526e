// Validates every object in the YAML files given against the Kubernetes API's own OpenAPI schema
// (kubernetes-models: the upstream definitions as JSON Schema). Prints "ok KIND NAME (FILE)" or the
// schema's errors; exit 1 if any object fails or has a kind it does not know.
import { readFileSync } from "node:fs";
import { parseAllDocuments } from "yaml";

const groups = {
  v1: () => import("kubernetes-models/v1"),
  "batch/v1": () => import("kubernetes-models/batch/v1"),
  "apps/v1": () => import("kubernetes-models/apps/v1"),
};
let failed = 0;
for (const file of process.argv.slice(2)) {
  for (const doc of parseAllDocuments(readFileSync(file, "utf8"))) {
    const obj = doc.toJS();
    if (!obj) continue;
    const name = `${obj.kind} ${obj.metadata?.name ?? "(no name)"} (${file})`;
    const group = groups[obj.apiVersion];
    const Model = group ? (await group())[obj.kind] : undefined;
    if (!Model) {
      console.log(`FAIL ${name}: apiVersion ${obj.apiVersion} kind ${obj.kind} is not one this check knows`);
      failed++;
      continue;
    }
    try {
      new Model(obj).validate();
      console.log(`ok   ${name}: valid ${obj.apiVersion} ${obj.kind}`);
    } catch (e) {
      console.log(`FAIL ${name}: ${e.message}`);
      failed++;
    }
  }
}
process.exit(failed ? 1 : 0);
