// UNITY ONLY (uses UnityEngine; not compiled by the Mono test): a Grove JSON export as an asset
// (what the Editor's GroveExportImporter makes of a .grovepoints or a chosen .json file): its
// layers with their types and points, and each type's instance matrices in Unity's frame.
using System;
using System.Collections.Generic;
using UnityEngine;

namespace Grove
{
    [Serializable]
    public sealed class GroveExportAssetLayer
    {
        public string name;
        public string node;
        public string[] types;
        public bool hasZ;
        public GrovePoint[] points;
    }

    public sealed class GroveExportAsset : ScriptableObject
    {
        public string graphName;
        public long seed;
        public GroveExportAssetLayer[] layers = new GroveExportAssetLayer[0];

        public void Fill(GroveExport export)
        {
            graphName = export.GraphName;
            seed = export.Seed;
            layers = new GroveExportAssetLayer[export.Layers.Count];
            for (int k = 0; k < layers.Length; ++k)
            {
                GroveExportLayer from = export.Layers[k];
                layers[k] = new GroveExportAssetLayer { name = from.Name, node = from.Node, types = from.Types, hasZ = from.HasZ, points = from.Points };
            }
        }

        /// <summary>The transforms of a layer's points of one type (GroveAxes: Grove (x, y, z) is Unity (x, z, -y)).</summary>
        public Matrix4x4[] Matrices(int layer, int type)
        {
            var found = new List<Matrix4x4>();
            foreach (GrovePoint point in layers[layer].points)
                if (point.type == type)
                    found.Add(GroveUnityMath.Instance(point));
            return found.ToArray();
        }
    }
}
