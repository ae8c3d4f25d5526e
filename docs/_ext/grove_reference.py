"""Generates the manual's reference pages from the built program at build time.

- ``reference/nodes/<type>.md``: one page per node type from ``grove-cli nodes --json`` (params with
  ranges and defaults, ports, description) and a thumbnail of what it makes, drawn by
  ``grove-thumbnail`` from a small graph that feeds every input (see ``example_graph``).
- ``reference/cli.md``: every command and option from ``grove-cli --help``.
- ``reference/limits.md``: the budgets from ``grove-cli nodes --json``'s ``limits``.

The pages are written under docs/reference/ (ignored by git) before Sphinx reads the sources.
The ``runnable`` directive shows a shell block that tests/docs_commands.py runs against the build.
"""
import json
import os
import shutil
import subprocess

from docutils import nodes
from docutils.parsers.rst import Directive, directives

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.dirname(HERE)
ROOT = os.path.dirname(DOCS)
OUT = os.path.join(DOCS, "reference")


def tool(name, env_var):
    path = os.environ.get(env_var) or os.path.join(ROOT, "build", "app", name)
    if not os.access(path, os.X_OK):
        raise RuntimeError(f"the manual is generated from the program: {path} is missing "
                           f"(build Grove first, or set {env_var})")
    return path


def run(args, **kw):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kw).stdout


# A source for each port type a node may take, so every node can be drawn alone.
SOURCES = {
    "field": ("src_field", "value_noise", {"frequency": 0.02, "octaves": 3}, {}),
    "mask": ("src_mask", "allowed_rule", {"min": 0.45}, {"field": "src_field"}),
    "labels": ("src_labels", "threshold", {"cuts": [0.4, 0.6], "labels": ["low", "mid", "high"]}, {"field": "src_field"}),
    "points": ("src_points", "place_layer", {"radius": 12}, {}),
}


def yaml_value(v):
    return json.dumps(v)


# Nodes that read a file draw the valley preset's inputs, on the valley's world.
VALLEY = os.path.join(ROOT, "presets", "valley")
FILES = {
    "image": {"path": os.path.join(VALLEY, "heightmap.png")},
    "shapes": {"path": os.path.join(VALLEY, "roads.tmj"), "layer": "roads", "width": 14},
    "points_file": {"path": os.path.join(VALLEY, "houses.csv")},
    "place_path": {"path": os.path.join(VALLEY, "roads.tmj"), "layer": "roads", "radius": 16, "offset": 14, "side": "both"},
}


# Nodes that need a world of their own kind.
WORLDS = {"place_volume": "{width: 256, height: 256, depth: 256, seed: 7}"}


def example_graph(node, first_optional=False):
    """A 256 x 256 world holding the node, with each required input fed by a simple source (and
    the first optional one, for a node such as distance that needs one of several)."""
    if not node["outputs"]:
        return None
    needed, inputs = {}, {}
    optional = [p for p in node["inputs"] if p["optional"]]
    for port in node["inputs"]:
        if port["optional"] and not (first_optional and optional and port is optional[0]):
            continue
        source = SOURCES.get(port["type"])
        if source is None:
            return None
        inputs[port["name"]] = source[0]
        needed[port["type"]] = source
    for dep in list(needed.values()):
        for wired in dep[3].values():  # a source that needs the field source
            needed.setdefault("field", SOURCES["field"])
    world = WORLDS.get(node["type"], "{width: 1024, height: 768, seed: 7}" if node["type"] in FILES
                       else "{width: 256, height: 256, seed: 7}")
    lines = ["grove: 1", f"name: {node['type']}", f"world: {world}", "nodes:"]
    for key in ("field", "mask", "labels", "points"):
        if key in needed:
            nid, typ, params, ins = needed[key]
            lines += [f"  {nid}:", f"    type: {typ}"]
            if ins:
                lines.append("    inputs: {" + ", ".join(f"{k}: {v}" for k, v in ins.items()) + "}")
            lines.append("    params: {" + ", ".join(f"{k}: {yaml_value(v)}" for k, v in params.items()) + "}")
    lines += ["  subject:", f"    type: {node['type']}"]
    if inputs:
        lines.append("    inputs: {" + ", ".join(f"{k}: {v}" for k, v in inputs.items()) + "}")
    if node["type"] in FILES:
        lines.append("    params: {" + ", ".join(f"{k}: {yaml_value(v)}" for k, v in FILES[node["type"]].items()) + "}")
    return "\n".join(lines) + "\n"


def param_range(p):
    lo, hi = p.get("min"), p.get("max")
    if lo is None and hi is None:
        return ""
    left = "(" if p.get("minExclusive") else "["
    return f"{left}{'' if lo is None else lo}, {'' if hi is None else hi}]"


def cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def node_page(node, thumb):
    out = [f"# {node['displayName']} (`{node['type']}`)", "", f"*{node['category']}*", "", node["description"], ""]
    if thumb:
        where = "the valley preset's input file" if node["type"] in FILES else "a 256 x 256 world"
        out += [f"![What {node['type']} makes from {where}](thumbs/{node['type']}.png)", ""]
    if node.get("exact"):
        out += ["Bit-exact with the seed JavaScript.", ""]
    for title, ports in (("Inputs", node["inputs"]), ("Outputs", node["outputs"])):
        out += [f"## {title}", ""]
        if not ports:
            out += ["None.", ""]
            continue
        inputs = title == "Inputs"
        out += ["| port | type | | what |" if inputs else "| port | type | what |",
                "| --- | --- | --- | --- |" if inputs else "| --- | --- | --- |"]
        for p in ports:
            need = (" optional |" if p["optional"] else " required |") if inputs else ""
            out.append(f"| `{p['name']}` | {p['type']} |{need} {cell(p.get('description', ''))} |")
        out.append("")
    out += ["## Params", ""]
    if not node["params"]:
        out += ["None.", ""]
    else:
        out += ["| param | kind | default | range | what |", "| --- | --- | --- | --- | --- |"]
        for p in node["params"]:
            default = json.dumps(p.get("default")) if "default" in p else ""
            out.append(f"| `{p['name']}` | {p['kind']} | `{cell(default)}` | {param_range(p)} | {cell(p.get('description', ''))} |")
        out.append("")
    return "\n".join(out)


def generate(app):
    cli = tool("grove-cli", "GROVE_CLI")
    catalog = json.loads(run([cli, "nodes", "--json"]))
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(os.path.join(OUT, "nodes", "thumbs"))
    thumbnailer = os.environ.get("GROVE_THUMBNAIL") or os.path.join(ROOT, "build", "docs", "grove-thumbnail")
    index = ["# Node reference", "",
             "One page per node type, generated from the node descriptors when the manual is built "
             "(`grove-cli nodes --json`). The picture on each page is what the node makes on a "
             "256 x 256 world, its required inputs fed by a value noise, an allowed rule, a threshold "
             "or a place_layer.", "", "| category | node | what it makes |", "| --- | --- | --- |"]
    toc = []
    for node in catalog["nodes"]:
        thumb = False
        if os.access(thumbnailer, os.X_OK) and example_graph(node):
            gpath = os.path.join(OUT, "nodes", "thumbs", node["type"] + ".grove.yaml")
            png = os.path.join(OUT, "nodes", "thumbs", node["type"] + ".png")
            for first_optional in (False, True):
                with open(gpath, "w") as f:
                    f.write(example_graph(node, first_optional))
                result = subprocess.run([thumbnailer, gpath, "subject", png], capture_output=True, text=True)
                if result.returncode == 0:
                    break
            if result.returncode != 0:
                raise RuntimeError(f"grove-thumbnail {node['type']}: {result.stderr.strip()}")
            thumb = True
        with open(os.path.join(OUT, "nodes", node["type"] + ".md"), "w") as f:
            f.write(node_page(node, thumb))
        first = node["description"].split(". ")[0].rstrip(".")
        index.append(f"| {node['category']} | [{node['displayName']}](nodes/{node['type']}.md) | {cell(first)} |")
        toc.append(f"nodes/{node['type']}")
    index += ["", "```{toctree}", ":hidden:", ""] + toc + ["```", ""]
    with open(os.path.join(OUT, "nodes.md"), "w") as f:
        f.write("\n".join(index))
    usage = run([cli, "--help"])
    with open(os.path.join(OUT, "cli.md"), "w") as f:
        f.write("# grove-cli reference\n\nGenerated from `grove-cli --help` when the manual is built.\n\n```text\n"
                + usage.rstrip() + "\n```\n")
    limits = catalog.get("limits")
    if limits is not None:
        rows = ["Generated from the program (`grove-cli nodes --json`, `limits`) when the manual is built.", "",
                "| budget | value | what |", "| --- | --- | --- |"]
        for item in limits:
            rows.append(f"| `{item['name']}` | {item['value']} | {cell(item['description'])} |")
        with open(os.path.join(OUT, "limits.md"), "w") as f:
            f.write("\n".join(rows) + "\n")


class Runnable(Directive):
    """A shell block that tests/docs_commands.py runs in a scratch folder (``:exit:`` its status)."""
    has_content = True
    option_spec = {"exit": directives.nonnegative_int}

    def run(self):
        text = "\n".join(self.content)
        block = nodes.literal_block(text, text)
        block["language"] = "sh"
        return [block]


def setup(app):
    app.connect("builder-inited", generate)
    app.add_directive("runnable", Runnable)
    return {"version": "1", "parallel_read_safe": True}
