import Foundation
import ZIPFoundation

/// Zips an export folder the way the Health app does: `apple_health_export/…`, Deflate.
public enum ExportArchiver {
    /// Zips `root/apple_health_export` into `zip`, replacing it.
    public static func zip(folder root: URL, to zip: URL) throws {
        try? FileManager.default.removeItem(at: zip)
        let archive = try Archive(url: zip, accessMode: .create)
        let base = root.appendingPathComponent("apple_health_export")
        guard let enumerator = FileManager.default.enumerator(atPath: base.path) else { return }
        var files: [String] = []
        while let item = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: base.appendingPathComponent(item).path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                files.append(item)
            }
        }
        // The document first, as iOS writes it; then the rest in a stable order.
        files.sort { (a, b) in
            let aDoc = !a.contains("/") && a.hasSuffix(".xml") && a != "export_cda.xml"
            let bDoc = !b.contains("/") && b.hasSuffix(".xml") && b != "export_cda.xml"
            return aDoc != bDoc ? aDoc : a < b
        }
        for file in files {
            try archive.addEntry(
                with: "apple_health_export/" + file, relativeTo: base.deletingLastPathComponent().appendingPathComponent(""),
                compressionMethod: .deflate)
        }
    }
}
