// Points exports in engines' own shapes: glTF 2.0 binary with GPU instancing, a Godot 4 scene,
// and Unreal DataTable rows (CSV and JSON). README "Engines" gives each one's axes and loading.
#pragma once

#include "core/base/DataTypes.h"
#include "core/formats/TextOut.h"

#include <string>
#include <vector>

namespace grove {

struct ExportInfo;

// glTF 2.0 binary (.glb). One node per layer and type that has points, each instancing a small
// marker mesh of its own (a pyramid of unit height, the layer's colour) with
// EXT_mesh_gpu_instancing: TRANSLATION (x, z, y) (z the layer's height, 0 without), ROTATION (about +Y; Grove's clockwise degrees
// seen from above become -rot), SCALE (s, s, s). glTF is Y-up, right-handed, in float32.
// Layer, type, node and graph metadata go in `extras`.
std::string exportGltf(const ExportInfo &info, const std::vector<PointLayerPtr> &layers);

// A Godot 4 text scene (.tscn): a Node3D root with one MultiMeshInstance3D per layer and type,
// each a MultiMesh of 3D transforms (12 floats a point: basis rows with the origin) holding a
// small marker mesh. Grove x and y map to Godot X and Z; rotation is about Y, as for glTF.
std::string exportGodot(const ExportInfo &info, const std::vector<PointLayerPtr> &layers, const TextSink *sink = nullptr);
// The attributes a Godot scene leaves out (a MultiMesh's custom data holds a layer's first four),
// a sentence a layer that has more.
std::vector<std::string> godotWarnings(const std::vector<PointLayerPtr> &layers);

// Unreal DataTable rows: CSV whose first column `Name` is a unique row key (LAYER_ID), then the
// FGrovePoint struct's fields; and the same rows as the JSON array FillDataTableFromJSONFile reads.
std::string exportUnrealCsv(const std::vector<PointLayerPtr> &layers, const TextSink *sink = nullptr, int threads = 1);
std::string exportUnrealJson(const std::vector<PointLayerPtr> &layers, const TextSink *sink = nullptr, int threads = 1);

} // namespace grove
