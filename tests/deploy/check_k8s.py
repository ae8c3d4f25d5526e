#!/usr/bin/env python3
"""Checks the Kubernetes manifests in app/deploy/k8s for structure (no cluster needed): the shards
are an Indexed Job whose completions equal the N of `--shard $(JOB_COMPLETION_INDEX)/N`, the index
comes from JOB_COMPLETION_INDEX, the parts go to the claim that the merge Job reads, and the merge
writes the world there. Usage: check_k8s.py DIR. Prints 'N passed, N failed'."""
import re
import sys
from pathlib import Path

import yaml

folder = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "app/deploy/k8s")
docs = [d for f in sorted(folder.glob("*.yaml")) for d in yaml.safe_load_all(f.read_text()) if d]
passed, failed = 0, 0


def check(ok, what):
    global passed, failed
    print(("ok   " if ok else "FAIL ") + what)
    if ok:
        passed += 1
    else:
        failed += 1


def pod(job):
    return job["spec"]["template"]["spec"]


def mounts(job, claims):
    """mount paths of the job's containers for volumes backed by one of `claims`"""
    volumes = {v["name"]: v.get("persistentVolumeClaim", {}).get("claimName") for v in pod(job).get("volumes", [])}
    out = []
    for c in pod(job)["containers"]:
        for m in c.get("volumeMounts", []):
            if volumes.get(m["name"]) in claims:
                out.append(m["mountPath"])
    return out


jobs = [d for d in docs if d.get("kind") == "Job"]
claims = {d["metadata"]["name"] for d in docs if d.get("kind") == "PersistentVolumeClaim"}
indexed = [j for j in jobs if j["spec"].get("completionMode") == "Indexed"]
check(len(indexed) == 1, "one Job with completionMode: Indexed (the shards)")
check(len(claims) == 1, "one PersistentVolumeClaim for the parts")
if len(indexed) != 1 or len(claims) != 1:
    print(f"{passed} passed, {failed} failed")
    sys.exit(1)
shards = indexed[0]
merges = [j for j in jobs if j is not shards and any("merge" in " ".join(c.get("command", []) + c.get("args", []))
                                                     for c in pod(j)["containers"])]
check(shards["apiVersion"] == "batch/v1", "the shards Job is batch/v1")
check(len(merges) == 1, "a second Job runs grove-cli merge")
container = pod(shards)["containers"][0]
line = " ".join(container.get("command", []) + container.get("args", []))
m = re.search(r"grove-cli eval .*--shard \$\((\w+)\)/(\d+)", line)
check(m is not None, "the shard container runs grove-cli eval ... --shard $(VAR)/N")
if m:
    var, n = m.group(1), int(m.group(2))
    check(var == "JOB_COMPLETION_INDEX", "the shard index is $(JOB_COMPLETION_INDEX)")
    check(shards["spec"].get("completions") == n, f"completions {shards['spec'].get('completions')} equals N = {n}")
    p = shards["spec"].get("parallelism")
    check(isinstance(p, int) and 1 <= p <= n, f"parallelism {p} is from 1 to N")
    env = {e["name"]: e for e in container.get("env", [])}
    # $(VAR) expands only for a variable in the container's env; JOB_COMPLETION_INDEX from the annotation
    check(var in env and "job-completion-index" in str(env[var].get("valueFrom", "")),
          "JOB_COMPLETION_INDEX is in the env, from the completion-index annotation")
    out = re.search(r"-o (\S+)", line)
    check(out is not None and "$(JOB_COMPLETION_INDEX)" in out.group(1), "each shard writes its own part")
    shard_mounts = mounts(shards, claims)
    check(any(out and out.group(1).startswith(mp.rstrip("/") + "/") for mp in shard_mounts),
          "the parts go to the claim mounted in the shard pods")
    if merges:
        merge = merges[0]
        mline = " ".join(sum((c.get("command", []) + c.get("args", []) for c in pod(merge)["containers"]), []))
        parts_dir = out.group(1).rsplit("/", 1)[0] if out else None
        check(parts_dir is not None and f"{parts_dir}/" in mline, f"the merge reads the parts from {parts_dir}")
        merge_mounts = mounts(merge, claims)
        check(any(parts_dir and parts_dir.startswith(mp.rstrip("/")) for mp in merge_mounts),
              "the same claim is mounted in the merge pod")
        check(re.search(r"-o \S+", mline) is not None, "the merge writes the world with -o")
for j in jobs:
    check(pod(j).get("restartPolicy") in ("Never", "OnFailure"), f"job {j['metadata']['name']}: restartPolicy Never or OnFailure")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
