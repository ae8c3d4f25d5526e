// UNITY ONLY (uses UnityEngine; not compiled by the Mono test): streams a Grove graph's chunks around
// a transform and draws them as instanced meshes. Each frame: the transform's position on Grove's
// map (GroveAxes) with a radius goes to the session's Update with a microsecond budget; the chunks
// that became ready are turned once into per-type Matrix4x4 batches (GroveInstanceStore), the
// unloaded ones dropped; every held batch is drawn with Graphics.DrawMeshInstanced (the material
// needs "Enable GPU Instancing"). The graph opens in OnEnable and closes in OnDisable.
using System;
using System.Collections.Generic;
using System.IO;
using UnityEngine;

namespace Grove
{
    /// <summary>What to draw for one type of one layer.</summary>
    [Serializable]
    public sealed class GroveTypeVisual
    {
        public string layer = "trees";
        [Tooltip("The type's name as the layer's types list it (a layer without types: the layer's name)")]
        public string type = "oak";
        public Mesh mesh;
        public Material material;
    }

    [AddComponentMenu("Grove/Grove Streamer")]
    public sealed class GroveStreamer : MonoBehaviour
    {
        [Tooltip("The graph (.grove.yaml); a relative path is taken from StreamingAssets")]
        public string graphPath = "forest.grove.yaml";
        [Tooltip("NODE.PARAM=VALUE overrides, as grove-cli's --set")]
        public string[] overrides = new string[0];
        [Tooltip("The layers to stream (export names or node ids)")]
        public string[] layers = { "trees" };
        [Tooltip("Streams around this transform (none: this GameObject's)")]
        public Transform target;
        public float radius = 600;
        [Tooltip("Microseconds a frame spent handing chunks over")]
        public int budgetMicroseconds = 2000;
        [Tooltip("Grove's worker threads (0: the cores less one, 1 to 8)")]
        public int workers;
        public GroveTypeVisual[] visuals = new GroveTypeVisual[0];
        public bool showStats;

        GroveGraph graph;
        GroveSession session;
        GroveInstanceStore<Matrix4x4> store;
        readonly GroveSource[] sources = new GroveSource[1];
        readonly Dictionary<long, GroveTypeVisual> visualOf = new Dictionary<long, GroveTypeVisual>();

        static long Key(int layer, int type)
        {
            return ((long)layer << 32) | (uint)type;
        }

        void OnEnable()
        {
            string path = Path.IsPathRooted(graphPath) ? graphPath : Path.Combine(Application.streamingAssetsPath, graphPath);
            try
            {
                graph = GroveGraph.OpenFile(path, overrides);
                session = graph.OpenSession(layers, new GroveSessionOptions { Workers = workers });
                visualOf.Clear();
                foreach (GroveTypeVisual visual in visuals)
                {
                    GroveLayer layer = graph.Layer(visual.layer);
                    int type = layer.Types.IndexOf(visual.type);
                    if (type < 0)
                        Debug.LogWarning("Grove: layer '" + layer.Name + "' has no type '" + visual.type + "' (its types: " +
                                         string.Join(", ", new List<string>(layer.Types).ToArray()) + ")", this);
                    else
                        visualOf[Key(layer.Index, type)] = visual;
                }
            }
            catch (Exception e) when (e is GroveException || e is ArgumentException)
            {
                Debug.LogError("Grove: " + e.Message, this);
                OnDisable();
                enabled = false;
                return;
            }
            store = new GroveInstanceStore<Matrix4x4>(GroveUnityMath.ToMatrix4x4);
        }

        void Update()
        {
            if (session == null)
                return;
            Vector3 at = (target != null ? target : transform).position;
            double x, y;
            GroveAxes.ToGrove(at.x, at.y, at.z, out x, out y);
            sources[0] = new GroveSource(x, y, radius);
            try
            {
                store.Apply(session.Update(sources, budgetMicroseconds));
            }
            catch (GroveException e) // a chunk that failed: the next update asks for it again
            {
                Debug.LogWarning("Grove: " + e.Message, this);
            }
            foreach (GroveInstanceBatch<Matrix4x4> batch in store.Batches)
            {
                GroveTypeVisual visual;
                if (visualOf.TryGetValue(Key(batch.Layer, batch.Type), out visual) && visual.mesh != null && visual.material != null)
                    Graphics.DrawMeshInstanced(visual.mesh, 0, visual.material, batch.Matrices, batch.Count);
            }
        }

        void OnDisable()
        {
            if (session != null)
                session.Dispose();
            if (graph != null)
                graph.Dispose();
            session = null;
            graph = null;
            if (store != null)
                store.Clear();
        }

        void OnGUI()
        {
            if (!showStats || session == null)
                return;
            GroveSessionStats s = session.Stats;
            GUI.Label(new Rect(10, 10, 520, 22),
                      "Grove: queued " + s.queued + ", computing " + s.computing + ", ready " + s.ready + ", resident " + s.resident +
                      ", instances " + store.InstanceCount + ", delivered " + s.delivered + ", evicted " + s.evicted +
                      ", update " + s.updateMicroseconds / 1000 + " ms in all");
        }
    }
}
