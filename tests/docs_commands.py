#!/usr/bin/env python3
"""Runs every ```{runnable} block of the manual (docs/*.md) against the build, so a renamed option
breaks CI rather than a reader; and holds the manual's YAML examples to the catalog (every node
type they name exists; every whole graph validates).

Each page's blocks run in order in one scratch folder holding a copy of presets/, with the build's
grove-cli first on PATH. A block is a shell script: every line but the last must succeed, and the
last must exit with the block's `:exit:` (0 when not given). Usage: docs_commands.py ROOT BUILD
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

BLOCK = re.compile(r"^```\{runnable\}[^\n]*\n(.*?)^```", re.S | re.M)
YAML = re.compile(r"^```yaml\n(.*?)^```", re.S | re.M)


def blocks(text):
    for m in BLOCK.finditer(text):
        body, expected = [], 0
        for line in m.group(1).splitlines():
            opt = re.match(r"^:exit:\s*(\d+)\s*$", line)
            if opt:
                expected = int(opt.group(1))
            elif line.strip():
                body.append(line)
        yield text.count("\n", 0, m.start()) + 1, body, expected


def yaml_checks(docs, page, text, catalog_types, env, scratch):
    """Every node type a YAML example names is in the catalog, and every whole graph in the
    manual validates (group files it names are looked for beside presets/)."""
    failures, ran = [], 0
    for m in YAML.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        body = m.group(1)
        for t in re.findall(r"^\s*type:\s*([a-z_0-9]+)\s*$", body, re.M):
            ran += 1
            if t not in catalog_types:
                failures.append(f"docs/{page}:{line}: node type '{t}' is not in grove-cli's catalog")
        if body.startswith("grove: 1") and "type: group" not in body:
            ran += 1
            path = os.path.join(scratch, "presets", "manual_example.grove.yaml")
            with open(path, "w", encoding="utf-8") as f:
                f.write(body)
            r = subprocess.run(["grove-cli", "validate", path], env=env, capture_output=True, text=True)
            if r.returncode != 0:
                failures.append(f"docs/{page}:{line}: the example graph does not validate:\n  {r.stderr.strip()[-600:]}")
    return failures, ran


def main():
    root, build = sys.argv[1], sys.argv[2]
    env = dict(os.environ, PATH=os.path.join(build, "app") + os.pathsep + os.environ.get("PATH", ""), LC_ALL="C.UTF-8")
    failures, ran = [], 0
    docs = os.path.join(root, "docs")
    catalog = json.loads(subprocess.run(["grove-cli", "nodes", "--json"], env=env, capture_output=True, text=True,
                                        check=True).stdout)
    catalog_types = {n["type"] for n in catalog["nodes"]}
    for page in sorted(f for f in os.listdir(docs) if f.endswith(".md")):
        with open(os.path.join(docs, page), encoding="utf-8") as f:
            text = f.read()
        found = list(blocks(text))
        with tempfile.TemporaryDirectory(prefix="grove-docs-") as scratch:
            shutil.copytree(os.path.join(root, "presets"), os.path.join(scratch, "presets"))
            yaml_failures, yaml_ran = yaml_checks(docs, page, text, catalog_types, env, scratch)
            failures += yaml_failures
            ran += yaml_ran
            for line, body, expected in found:
                script = "set -e\n" + "\n".join(body[:-1]) + "\nset +e\n" + body[-1] + "\n"
                r = subprocess.run(["bash", "-c", script], cwd=scratch, env=env, capture_output=True, text=True,
                                   stdin=subprocess.DEVNULL)
                ran += 1
                if r.returncode != expected:
                    failures.append(f"docs/{page}:{line}: exit {r.returncode}, the manual says {expected}\n"
                                    f"  {body}\n  stderr: {r.stderr.strip()[-600:]}")
    for f in failures:
        print(f)
    print(f"{ran - len(failures)} passed, {len(failures)} failed")
    return 1 if failures or ran == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
