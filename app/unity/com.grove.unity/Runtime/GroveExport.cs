// A grove.points JSON export (grove-cli eval --format json; docs/formats.md) read into layers of
// GrovePoints with the exact doubles of the file: what the Editor's importer turns into an asset and
// what a game may read at run time from a TextAsset. Unity-free.
using System;
using System.Collections.Generic;

namespace Grove
{
    public sealed class GroveExportLayer
    {
        public string Name;
        public string Node;
        public string[] Types;
        public bool HasZ;
        public GrovePoint[] Points;
    }

    public sealed class GroveExport
    {
        public string GraphName;
        public long Seed;
        public List<GroveExportLayer> Layers = new List<GroveExportLayer>();

        /// <summary>Reads a grove.points export; FormatException naming what is wrong and where.</summary>
        public static GroveExport Read(string json)
        {
            var root = GroveJson.Parse(json) as Dictionary<string, object>;
            if (root == null || !"grove.points".Equals(Member(root, "format", "the export")))
                throw new FormatException("not a Grove points export: its \"format\" is not \"grove.points\"");
            var export = new GroveExport();
            var graph = Member(root, "graph", "the export") as Dictionary<string, object>;
            if (graph != null)
            {
                object name, seed;
                if (graph.TryGetValue("name", out name))
                    export.GraphName = name as string;
                if (graph.TryGetValue("seed", out seed) && seed is GroveJsonNumber)
                    export.Seed = ((GroveJsonNumber)seed).ToInt64();
            }
            var layers = Member(root, "layers", "the export") as List<object>;
            if (layers == null)
                throw new FormatException("the export's \"layers\" is not an array");
            foreach (object item in layers)
                export.Layers.Add(Layer(item as Dictionary<string, object>, export.Layers.Count));
            return export;
        }

        static GroveExportLayer Layer(Dictionary<string, object> json, int index)
        {
            string what = "layer " + index;
            if (json == null)
                throw new FormatException(what + " is not an object");
            var layer = new GroveExportLayer();
            layer.Name = Member(json, "name", what) as string;
            what = "layer '" + layer.Name + "'";
            object node;
            layer.Node = json.TryGetValue("node", out node) ? node as string : layer.Name;
            var types = Member(json, "types", what) as List<object>;
            if (types == null)
                throw new FormatException(what + ": \"types\" is not an array");
            layer.Types = new string[types.Count];
            for (int t = 0; t < types.Count; ++t)
            {
                var type = types[t] as Dictionary<string, object>;
                layer.Types[t] = type == null ? null : Member(type, "name", what + " type " + t) as string;
            }
            var points = Member(json, "points", what) as List<object>;
            if (points == null)
                throw new FormatException(what + ": \"points\" is not an array");
            layer.Points = new GrovePoint[points.Count];
            for (int k = 0; k < points.Count; ++k)
            {
                var p = points[k] as Dictionary<string, object>;
                string at = what + " point " + k;
                if (p == null)
                    throw new FormatException(at + " is not an object");
                var point = new GrovePoint();
                point.id = (ulong)Integer(p, "id", at);
                point.x = Number(p, "x", at);
                point.y = Number(p, "y", at);
                object z;
                if (p.TryGetValue("z", out z))
                {
                    point.z = Number(p, "z", at);
                    layer.HasZ = true;
                }
                point.r = Number(p, "r", at);
                point.type = (int)Integer(p, "t", at);
                if (point.type < 0 || point.type >= layer.Types.Length)
                    throw new FormatException(at + ": type " + point.type + " is not one of the layer's " + layer.Types.Length);
                point.rotation = Number(p, "rot", at);
                point.scale = Number(p, "s", at);
                layer.Points[k] = point;
            }
            return layer;
        }

        static object Member(Dictionary<string, object> json, string key, string what)
        {
            object value;
            if (!json.TryGetValue(key, out value))
                throw new FormatException(what + " has no \"" + key + "\"");
            return value;
        }

        static double Number(Dictionary<string, object> json, string key, string what)
        {
            var number = Member(json, key, what) as GroveJsonNumber;
            if (number == null)
                throw new FormatException(what + ": \"" + key + "\" is not a number");
            return number.ToDouble();
        }

        static long Integer(Dictionary<string, object> json, string key, string what)
        {
            var number = Member(json, key, what) as GroveJsonNumber;
            long value;
            if (number == null || !long.TryParse(number.Text, System.Globalization.NumberStyles.AllowLeadingSign,
                                                 System.Globalization.CultureInfo.InvariantCulture, out value))
                throw new FormatException(what + ": \"" + key + "\" is not an integer");
            return value;
        }
    }
}
