#!/usr/bin/env python3
"""Writes the bad-input suite: one hostile or broken graph per file. The expected diagnostics
live beside each file in NAME.expect (reviewed by hand; tst_badinput checks them exactly).
Run from this folder: python3 make_cases.py"""
import os

BASE = "grove: 1\nworld:\n  width: 400\n  height: 300\n  seed: 7\nnodes:\n"
cases = {}

def case(name, text):
    cases[name] = text.encode() if isinstance(text, str) else text

def node(nid, body):
    return f"  {nid}:\n" + "".join("    " + l + "\n" for l in body.strip("\n").split("\n"))

# --- not a graph at all
case("empty", "")
case("only_comments", "# nothing here\n\n   \n")
case("truncated_map", (BASE + node("trees", "type: place_layer\nparams: {radius: 3, k: 12}"))[:-9])
case("truncated_string", 'grove: 1\nname: "Island w')
case("binary_garbage", bytes(range(256)) * 4)
case("nul_byte", b"grove: 1\nname: is\x00land\n")
case("scalar_document", "hello world\n")
case("list_document", "- grove: 1\n- world: {}\n")
case("tab_indentation", "grove: 1\nworld:\n\twidth: 3\n")
case("unterminated_flow", "grove: 1\nworld: {width: 3, height: 4\nnodes: {}\n")
case("utf16_bytes", "grove: 1\n".encode("utf-16"))
# --- version
case("newer_version", "grove: 2\nworld: {width: 1, height: 1}\nsomething_new: true\n")
case("version_string", 'grove: "1"\nworld: {width: 1, height: 1}\n')
case("version_zero", "grove: 0\nworld: {width: 1, height: 1}\n")
case("version_fraction", "grove: 1.5\nworld: {width: 1, height: 1}\n")
case("missing_version", "world: {width: 1, height: 1}\nnodes: {}\n")
# --- resource attacks
laughs = "grove: 1\nworld: {width: 10, height: 10}\nnodes:\n  c:\n    type: threshold\n    params:\n      labels: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
for i in range(1, 9):
    laughs += f"      x{i}: &a{i} [" + ", ".join([f"*a{i-1}"] * 10) + "]\n"
case("billion_laughs", laughs)
case("deep_flow_nesting", "grove: 1\nworld: {width: 10, height: 10}\nnodes:\n  c:\n    type: constant\n    params:\n      value: " + "[" * 20000 + "]" * 20000 + "\n")
case("deep_block_nesting", "grove: 1\nworld: {width: 10, height: 10}\nnotes:\n" + "- " * 20000 + "x\n")
case("deep_map_nesting", "grove: 1\nworld: {width: 10, height: 10}\nlayout:\n" + "".join(" " * (i + 1) + f"k{i}:\n" for i in range(1000)))
case("long_node_id", BASE + node("t" * 100000, "type: constant"))
case("long_unknown_key", BASE.replace("nodes:\n", "q" * 100000 + ": 1\nnodes:\n"))
case("long_name", "grove: 1\nname: " + "N" * 1000000 + "\nworld: {width: 10, height: 10}\nnodes:\n  c:\n    type: nope\n")
case("huge_number_literal", BASE + node("c", "type: constant\nparams:\n  value: 1" + "0" * 400))
# --- structure
case("duplicate_top_key", "grove: 1\nworld: {width: 1, height: 1}\nworld: {width: 2, height: 2}\n")
case("duplicate_param", BASE + node("t", "type: place_layer\nparams:\n  radius: 3\n  radius: 4"))
case("duplicate_node_id", BASE + node("n", "type: value_noise") + node("n", "type: constant"))
case("unknown_top_key", BASE.replace("nodes:\n", "wrold: 3\nnodes:\n"))
case("unknown_node_key", BASE + node("n", "type: value_noise\nparms:\n  seed: 1"))
case("unknown_world_key", "grove: 1\nworld: {width: 1, height: 1, sead: 3}\n")
case("missing_world", "grove: 1\nnodes: {}\n")
case("world_missing_width", "grove: 1\nworld: {height: 1}\n")
case("world_not_a_map", "grove: 1\nworld: 400x300\n")
case("nodes_is_a_list", "grove: 1\nworld: {width: 1, height: 1}\nnodes: [a, b]\n")
case("node_is_a_scalar", BASE + "  n: value_noise\n")
case("type_missing", BASE + node("n", "params: {seed: 1}"))
case("type_is_a_list", BASE + node("n", "type: [value_noise]"))
case("params_is_a_list", BASE + node("n", "type: value_noise\nparams: [1, 2]"))
case("inputs_is_a_scalar", BASE + node("t", "type: threshold\ninputs: n"))
case("key_is_a_map", "grove: 1\nworld: {width: 1, height: 1}\n? {a: 1}\n: 2\n")
case("notes_is_a_map", "grove: 1\nworld: {width: 1, height: 1}\nnotes: {a: 1}\n")
case("layout_garbage", "grove: 1\nworld: {width: 1, height: 1}\nnodes:\n  c:\n    type: constant\nlayout:\n  nodes:\n    c: {x: abc, y: .inf, z: 1}\n")
# --- world values
case("world_width_negative", "grove: 1\nworld: {width: -400, height: 300}\n")
case("world_width_zero", "grove: 1\nworld: {width: 0, height: 300}\n")
case("world_width_nan", "grove: 1\nworld: {width: .nan, height: 300}\n")
case("world_width_inf", "grove: 1\nworld: {width: .inf, height: 300}\n")
case("world_width_string", "grove: 1\nworld: {width: wide, height: 300}\n")
case("world_width_absurd", "grove: 1\nworld: {width: 1e300, height: 300}\n")
case("seed_beyond_int32", "grove: 1\nworld: {width: 1, height: 1, seed: 4294967296}\n")
case("seed_below_int32", "grove: 1\nworld: {width: 1, height: 1, seed: -2147483649}\n")
case("seed_fraction", "grove: 1\nworld: {width: 1, height: 1, seed: 1.5}\n")
case("param_seed_beyond_int32", BASE + node("n", "type: value_noise\nparams: {seed: 99999999999}"))
# --- params
P = lambda params, t="place_layer": BASE + node("t", f"type: {t}\nparams:\n" + "".join("  " + l + "\n" for l in params.split("\n")).rstrip("\n"))
case("radius_zero", P("radius: 0"))
case("radius_negative", P("radius: -5"))
case("radius_nan", P("radius: .nan"))
case("radius_inf", P("radius: .inf"))
case("radius_tiny_on_huge_world", "grove: 1\nworld: {width: 1000000, height: 1000000}\nnodes:\n" + node("t", "type: place_layer\nparams: {radius: 1.0e-9}"))
case("k_huge", P("k: 1e9"))
case("k_zero", P("k: 0"))
case("k_fraction", P("k: 2.5"))
case("k_hex", P("k: 0x1e"))
case("octaves_huge", P("octaves: 1e8", "value_noise"))
case("frequency_absurd", P("frequency: 1e300", "value_noise"))
case("frequency_negative", P("frequency: -0.01", "value_noise"))
case("lacunarity_string", P("lacunarity: two", "value_noise"))
case("bad_enum", P("start: diagonal"))
case("types_not_a_list", P("types: oak"))
case("types_negative_weight", P("types: [{name: oak, weight: -1}]"))
case("types_duplicate", P("types: [{name: oak}, {name: oak}]"))
case("special_negative_count", P("types: [{name: oak}]\nspecial: {type: oak, count: -1}"))
case("special_unknown_type", P("types: [{name: oak}]\nspecial: {type: pine, count: 2}"))
case("rotation_one_value", P("rotation: [1]"))
case("scale_reversed", P("scale: [2, 1]"))
case("color_not_hex", P('color: "#zzzzzz"'))
case("allowed_min_nan", BASE + node("r", "type: allowed_rule\nparams: {min: .nan}"))
case("include_not_a_list", BASE + node("r", "type: allowed_rule\nparams: {include: grass}"))
case("cuts_descending", BASE + node("n", "type: value_noise") + node("t", "type: threshold\ninputs: {field: n}\nparams:\n  cuts: [0.7, 0.3]\n  labels: [a, b, c]"))
case("labels_mismatch", BASE + node("n", "type: value_noise") + node("t", "type: threshold\ninputs: {field: n}\nparams: {cuts: [0.5], labels: [a, b, c]}"))
case("density_max_below_min", BASE + node("n", "type: value_noise") + node("d", "type: density\ninputs: {field: n}\nparams: {min_radius: 30, max_radius: 10}"))
case("unknown_param", P("raduis: 3"))
case("unknown_type", BASE + node("n", "type: value_nosie"))
case("null_param", P("radius: null"))
case("bool_for_number", P("radius: true"))
# --- links
case("cycle", BASE + node("a", "type: allowed_rule\ninputs: {mask: c}") + node("b", "type: allowed_rule\ninputs: {mask: a}") + node("c", "type: allowed_rule\ninputs: {mask: b}"))
case("self_link", BASE + node("r", "type: allowed_rule\ninputs: {mask: r}"))
case("link_missing_node", BASE + node("t", "type: place_layer\ninputs: {allowed: nowhere}"))
case("link_missing_port", BASE + node("a", "type: place_layer") + node("b", "type: place_layer\ninputs: {obstacles: a.everything}"))
case("link_wrong_type", BASE + node("n", "type: value_noise") + node("t", "type: place_layer\ninputs: {obstacles: n}"))
case("link_not_a_string", BASE + node("n", "type: value_noise") + node("t", "type: threshold\ninputs: {field: [n]}"))
case("two_links_one_input", BASE + node("n", "type: value_noise") + node("m", "type: value_noise") + node("t", "type: threshold\ninputs:\n  field: n\n  field: m"))
case("unknown_input", BASE + node("n", "type: value_noise") + node("t", "type: threshold\ninputs: {feild: n}"))
case("required_input_missing", BASE + node("t", "type: threshold"))
case("non_ascii_id", BASE + node("bäume", "type: constant"))
case("id_starts_with_digit", BASE + node("1trees", "type: constant"))
case("id_with_dot", BASE + node("a.b", "type: constant"))
chain = "".join(node(f"m{i}", f"type: allowed_rule\ninputs: {{mask: m{(i - 1) % 20000}}}") for i in range(20000))
case("cycle_of_20000", BASE + chain)

here = os.path.dirname(os.path.abspath(__file__))
for name, data in sorted(cases.items()):
    with open(os.path.join(here, name + ".grove.yaml"), "wb") as f:
        f.write(data)
print(len(cases), "cases")
