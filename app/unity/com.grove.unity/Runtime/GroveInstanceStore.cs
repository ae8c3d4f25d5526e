// The instances of the chunks a session delivered, ready to draw: per chunk, per type, the points'
// matrices in batches of at most 1023 (Graphics.DrawMeshInstanced's limit), built once when a chunk
// arrives and dropped when it unloads. Holds the session to its promise: a chunk delivered while it
// is held, or unloaded while not held, is an error. Unity-free: TMatrix is Matrix4x4 in Unity and
// GroveMatrix in the Mono test.
using System;
using System.Collections.Generic;

namespace Grove
{
    /// <summary>Instances of one type of one chunk: Matrices[0..Count).</summary>
    public sealed class GroveInstanceBatch<TMatrix>
    {
        public int Layer { get; private set; }
        public int Type { get; private set; }
        public TMatrix[] Matrices { get; private set; }
        public int Count { get; private set; }

        internal GroveInstanceBatch(int layer, int type, TMatrix[] matrices, int count)
        {
            Layer = layer;
            Type = type;
            Matrices = matrices;
            Count = count;
        }
    }

    public sealed class GroveInstanceStore<TMatrix>
    {
        public const int MaxBatch = 1023;

        readonly Func<GroveMatrix, TMatrix> convert;
        readonly Dictionary<GroveChunkKey, List<GroveInstanceBatch<TMatrix>>> held =
            new Dictionary<GroveChunkKey, List<GroveInstanceBatch<TMatrix>>>();

        public GroveInstanceStore(Func<GroveMatrix, TMatrix> convert)
        {
            if (convert == null)
                throw new ArgumentNullException("convert");
            this.convert = convert;
        }

        public int ChunkCount
        {
            get { return held.Count; }
        }

        public int InstanceCount { get; private set; }

        public bool Holds(GroveChunkKey key)
        {
            return held.ContainsKey(key);
        }

        public IEnumerable<GroveChunkKey> Chunks
        {
            get { return held.Keys; }
        }

        /// <summary>Drops the update's unloaded chunks, then adds its ready ones.</summary>
        public void Apply(GroveUpdate update)
        {
            if (update == null)
                throw new ArgumentNullException("update");
            foreach (GroveChunkKey key in update.Unload)
                Remove(key);
            foreach (GroveChunk chunk in update.Ready)
                Add(chunk);
        }

        public void Add(GroveChunk chunk)
        {
            if (held.ContainsKey(chunk.Key))
                throw new InvalidOperationException(chunk.Key + " was delivered again while it is held");
            var byType = new SortedDictionary<int, List<TMatrix>>();
            foreach (GrovePoint point in chunk.Points)
            {
                List<TMatrix> list;
                if (!byType.TryGetValue(point.type, out list))
                    byType.Add(point.type, list = new List<TMatrix>());
                list.Add(convert(GroveAxes.Instance(point)));
            }
            var batches = new List<GroveInstanceBatch<TMatrix>>();
            foreach (KeyValuePair<int, List<TMatrix>> type in byType)
                for (int start = 0; start < type.Value.Count; start += MaxBatch)
                {
                    int count = Math.Min(MaxBatch, type.Value.Count - start);
                    var matrices = new TMatrix[count];
                    type.Value.CopyTo(start, matrices, 0, count);
                    batches.Add(new GroveInstanceBatch<TMatrix>(chunk.Key.Layer, type.Key, matrices, count));
                }
            held.Add(chunk.Key, batches);
            InstanceCount += chunk.Points.Length;
        }

        public void Remove(GroveChunkKey key)
        {
            List<GroveInstanceBatch<TMatrix>> batches;
            if (!held.TryGetValue(key, out batches))
                throw new InvalidOperationException(key + " was unloaded but is not held");
            held.Remove(key);
            foreach (GroveInstanceBatch<TMatrix> batch in batches)
                InstanceCount -= batch.Count;
        }

        public void Clear()
        {
            held.Clear();
            InstanceCount = 0;
        }

        /// <summary>Every held batch, to draw each frame.</summary>
        public IEnumerable<GroveInstanceBatch<TMatrix>> Batches
        {
            get
            {
                foreach (List<GroveInstanceBatch<TMatrix>> batches in held.Values)
                    foreach (GroveInstanceBatch<TMatrix> batch in batches)
                        yield return batch;
            }
        }
    }
}
