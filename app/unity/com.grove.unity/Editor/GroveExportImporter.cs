// UNITY ONLY (uses UnityEditor; not compiled by the Mono test): imports a Grove JSON export
// (grove-cli eval --format json) as a GroveExportAsset. Files named *.grovepoints import with it
// by default; for a *.json file choose "GroveExportImporter" in the Importer drop-down of its
// Inspector. The reading itself is GroveExport.Read (Runtime, Unity-free, tested under Mono).
using System;
using System.IO;
using UnityEditor.AssetImporters;
using UnityEngine;

namespace Grove.Editor
{
    [ScriptedImporter(1, new[] { "grovepoints" }, new[] { "json" })]
    public sealed class GroveExportImporter : ScriptedImporter
    {
        public override void OnImportAsset(AssetImportContext ctx)
        {
            GroveExport export;
            try
            {
                export = GroveExport.Read(File.ReadAllText(ctx.assetPath));
            }
            catch (FormatException e)
            {
                ctx.LogImportError(ctx.assetPath + ": " + e.Message);
                return;
            }
            var asset = ScriptableObject.CreateInstance<GroveExportAsset>();
            asset.name = Path.GetFileNameWithoutExtension(ctx.assetPath);
            asset.Fill(export);
            ctx.AddObjectToAsset("export", asset);
            ctx.SetMainObject(asset);
        }
    }
}
