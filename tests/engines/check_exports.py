#!/usr/bin/env python3
"""Holds Grove's Godot, Unreal and Tiled exports to readers Grove did not write (Python's csv,
json and xml.etree; Tiled itself re-exports the map before this runs) and to Grove's own
grove.points JSON export of the same graph.

usage: check_exports.py POINTS.json GODOT.tscn UNREAL.csv UNREAL.json TILED-REEXPORT.tmx [POINTS.csv]
Attributes (the JSON's per-point "attributes") are held in each: Godot's custom data (the first
four, named by metadata/custom_data), Unreal's columns, Tiled's properties and the CSV's columns.
Godot itself is not run here (Debian 12 ships no Godot 4): the scene is parsed by the rules of
Godot's text scene format and its MultiMesh transforms are checked against the points."""
import csv
import json
import math
import re
import struct
import sys
import xml.etree.ElementTree as ET


def f32(v):
    return struct.unpack('<f', struct.pack('<f', v))[0]


def close(a, b):
    return math.isclose(a, b, rel_tol=1e-5, abs_tol=1e-9)


def fail(msg):
    sys.exit(f'check_exports: {msg}')


points_path, godot_path, unreal_csv, unreal_json, tmx_path = sys.argv[1:6]
points_csv = sys.argv[6] if len(sys.argv) > 6 else None
with open(points_path, encoding='utf-8') as f:
    points = json.load(f)
layers = points['layers']
total = sum(layer['count'] for layer in layers)
by_group = {}
for layer in layers:
    for p in layer['points']:
        by_group.setdefault((layer['name'], layer['types'][p['t']]['name']), []).append(p)

# --- Godot 4 .tscn: header, sub-resources, nodes
text = open(godot_path, encoding='utf-8').read()
if not text.startswith('[gd_scene ') or 'format=3' not in text.splitlines()[0]:
    fail(f'{godot_path}: not a Godot 4 text scene')
sections = re.split(r'\n(?=\[)', text)
resources, nodes = {}, []
for sec in sections:
    head, _, body = sec.partition('\n')
    attrs = dict(re.findall(r'(\w+)="([^"]*)"', head))
    props = dict(re.findall(r'^([\w/]+) = (.*)$', body, re.M))
    if head.startswith('[sub_resource'):
        resources[attrs['id']] = (attrs['type'], props)
    elif head.startswith('[node'):
        nodes.append((attrs, props))
load_steps = int(re.search(r'load_steps=(\d+)', sections[0]).group(1))
if load_steps != len(resources) + 1:
    fail(f'{godot_path}: load_steps={load_steps} for {len(resources)} resources')
instances = 0
for attrs, props in nodes[1:]:
    if attrs['type'] != 'MultiMeshInstance3D' or attrs.get('parent') != '.':
        fail(f'{godot_path}: node {attrs} is not a MultiMeshInstance3D under the root')
    ref = re.fullmatch(r'SubResource\("([^"]+)"\)', props['multimesh']).group(1)
    kind, mm = resources[ref]
    if kind != 'MultiMesh' or mm['transform_format'] != '1':
        fail(f'{godot_path}: {ref} is not a 3D MultiMesh')
    mesh_ref = re.fullmatch(r'SubResource\("([^"]+)"\)', mm['mesh']).group(1)
    if resources[mesh_ref][0] != 'PrismMesh':
        fail(f'{godot_path}: {ref} has no marker mesh')
    key = (json.loads(props['metadata/layer']), json.loads(props['metadata/type']))
    want = by_group.get(key)
    count = int(mm['instance_count'])
    buf = [f32(float(v)) for v in re.fullmatch(r'PackedFloat32Array\((.*)\)', mm['buffer']).group(1).split(', ')]
    custom = json.loads('[' + re.fullmatch(r'PackedStringArray\((.*)\)', props['metadata/custom_data']).group(1) + ']') \
        if 'metadata/custom_data' in props else []
    if (mm.get('use_custom_data') == 'true') != bool(custom):
        fail(f'{godot_path}: {ref} use_custom_data={mm.get("use_custom_data")} with custom data {custom}')
    stride = 16 if custom else 12
    if want is None or count != len(want) or len(buf) != stride * count:
        fail(f'{godot_path}: {key}: {count} instances, {len(buf)} floats; the JSON export has {len(want or [])}')
    attributes = list(want[0].get('attributes', {})) if want else []
    if custom != attributes[:4]:
        fail(f'{godot_path}: {key}: custom data {custom}, the JSON export has attributes {attributes}')
    # a tagged layer's tags as the node's metadata/tags, and none on the others
    tags = props.get('metadata/tags')
    want_tags = next(layer.get('tags') for layer in layers if layer['name'] == key[0])
    if (json.loads('[' + tags[len('PackedStringArray('):-1] + ']') if tags else None) != want_tags:
        fail(f'{godot_path}: {key}: metadata/tags {tags}, the JSON export has tags {want_tags}')
    left_out = props.get('metadata/custom_data_left_out')
    if attributes[4:] and json.loads('[' + left_out[len('PackedStringArray('):-1] + ']') != attributes[4:]:
        fail(f'{godot_path}: {key}: attributes left out {left_out}, expected {attributes[4:]}')
    for i, p in enumerate(want):
        m = buf[stride * i:stride * i + 12]
        got_custom = buf[stride * i + 12:stride * i + stride]
        want_custom = [f32(p['attributes'][n]) for n in custom] + [0.0] * (len(got_custom) - len(custom))
        if got_custom != want_custom:
            fail(f'{godot_path}: {key}[{i}] custom data {got_custom} for attributes {p.get("attributes")}')
        # origin is the 4th float of each basis row; Grove x -> X, y -> Z
        if m[3] != f32(p['x']) or m[7] != f32(p.get('z', 0)) or m[11] != f32(p['y']):
            fail(f'{godot_path}: {key}[{i}] origin {m[3]}, {m[7]}, {m[11]} for ({p["x"]}, {p["y"]})')
        a = math.radians(-p['rot'])
        s = p['s']
        basis = [math.cos(a) * s, 0, math.sin(a) * s, 0, s, 0, -math.sin(a) * s, 0, math.cos(a) * s]
        got = [m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]]
        if any(abs(g - w) > 1e-5 * max(1, abs(s)) for g, w in zip(got, basis)):
            fail(f'{godot_path}: {key}[{i}] basis {got} for rot {p["rot"]} scale {s}')
    instances += count
if instances != total:
    fail(f'{godot_path}: {instances} instances in all; the JSON export has {total} points')

# --- Unreal DataTable CSV and JSON rows
with open(unreal_csv, newline='', encoding='utf-8') as f:
    reader = csv.DictReader(f)
    if reader.fieldnames[0] != 'Name':
        fail(f'{unreal_csv}: first column is {reader.fieldnames[0]!r}, not Name')
    rows = list(reader)
with open(unreal_json, encoding='utf-8') as f:
    json_rows = json.load(f)
for what, rs in ((unreal_csv, rows), (unreal_json, json_rows)):
    names = [r['Name'] for r in rs]
    if len(names) != total or len(set(names)) != total:
        fail(f'{what}: {len(names)} rows, {len(set(names))} distinct names; the JSON export has {total} points')
    expected_rows = [(layer['name'], p) for layer in layers for p in layer['points']]
    for r, (layer, p) in zip(rs, expected_rows):
        if r['Layer'] != layer or int(r['Id']) != p['id'] or float(r['X']) != p['x'] or float(r['Y']) != p['y'] \
                or float(r['Z']) != p.get('z', 0) \
                or float(r['Radius']) != p['r'] or float(r['Rotation']) != p['rot'] or float(r['Scale']) != p['s'] \
                or any(float(r[n]) != v for n, v in p.get('attributes', {}).items()):
            fail(f'{what}: row {r} differs from {layer} point {p}')

# --- Tiled: the map as Tiled itself wrote it back (tiled --export-map .tmj .tmx)
root = ET.parse(tmx_path).getroot()
groups = root.findall('objectgroup')
if [g.get('name') for g in groups] != [layer['name'] for layer in layers]:
    fail(f'{tmx_path}: object layers {[g.get("name") for g in groups]}')
attributes_checked = 0
for g, layer in zip(groups, layers):
    # a tagged layer's tags, kept by Tiled as the object layer's property grove.tags
    layer_props = {q.get('name'): q.get('value') for q in g.findall('properties/property')}
    if layer_props.get('grove.tags') != (','.join(layer['tags']) if 'tags' in layer else None):
        fail(f'{tmx_path}: {layer["name"]} has layer properties {layer_props}; the JSON export has tags {layer.get("tags")}')
    objs = g.findall('object')
    if len(objs) != layer['count']:
        fail(f'{tmx_path}: {layer["name"]} has {len(objs)} objects after Tiled; the JSON export has {layer["count"]}')
    for o, p in zip(objs, layer['points']):
        # Tiled writes numbers to 6 significant digits
        if o.find('point') is None or not close(float(o.get('x')), p['x']) or not close(float(o.get('y')), p['y']):
            fail(f'{tmx_path}: object {o.attrib} differs from point {p}')
        props = {q.get('name'): q.get('value') for q in o.iter('property')}
        # Tiled drops rotation from point objects; the custom property keeps it
        if not close(float(props.get('rotation', 'nan')), p['rot']) or not close(float(props['radius']), p['r']) \
                or ('z' in p) != ('z' in props) or ('z' in p and not close(float(props['z']), p['z'])) \
                or any(not close(float(props.get(n, 'nan')), v) for n, v in p.get('attributes', {}).items()):
            fail(f'{tmx_path}: object {o.get("id")} properties {props} for point {p}')
        attributes_checked += len(p.get('attributes', {}))

# --- Grove's own CSV, read by Python's csv: one column per attribute after the point's own
if points_csv:
    with open(points_csv, newline='', encoding='utf-8') as f:
        csv_rows = list(csv.DictReader(f))
    expected_rows = [(layer['name'], p) for layer in layers for p in layer['points']]
    if len(csv_rows) != len(expected_rows):
        fail(f'{points_csv}: {len(csv_rows)} rows; the JSON export has {len(expected_rows)} points')
    names = {n for _, p in expected_rows for n in p.get('attributes', {})}
    for r, (layer, p) in zip(csv_rows, expected_rows):
        a = p.get('attributes', {})
        if r['layer'] != layer or int(r['id']) != p['id'] or float(r['x']) != p['x'] \
                or any((float(r[n]) != a[n]) if n in a else r[n] != '' for n in names):
            fail(f'{points_csv}: row {r} differs from {layer} point {p}')
print(f'check_exports: Godot scene {instances} instances, Unreal CSV and JSON {total} unique rows, '
      f'Tiled re-export {sum(len(g.findall("object")) for g in groups)} objects, '
      f'{attributes_checked} attribute values: all as exported')
