/// Decides what bytes are by looking at them, never at a file name: localized phones write
/// `exportar.xml`, `导出.xml`, and people rename zips.
enum ContentSniffer {
    /// The first bytes of a zip local file header (`PK\x03\x04`), or of an empty zip.
    static func isZip(_ prefix: [UInt8]) -> Bool {
        prefix.count >= 4 && prefix[0] == 0x50 && prefix[1] == 0x4B
            && ((prefix[2] == 0x03 && prefix[3] == 0x04) || (prefix[2] == 0x05 && prefix[3] == 0x06))
    }

    /// Whether the first KiBs hold the export document's root (`<!DOCTYPE HealthData` or
    /// `<HealthData`).
    static func isHealthDataDocument(_ prefix: [UInt8]) -> Bool {
        contains(prefix, Array("<HealthData".utf8)) || contains(prefix, Array("<!DOCTYPE HealthData".utf8))
    }

    /// Whether the bytes look like XML at all (after a BOM and white space).
    static func looksLikeXML(_ prefix: [UInt8]) -> Bool {
        var i = 0
        if prefix.count >= 3 && prefix[0] == 0xEF && prefix[1] == 0xBB && prefix[2] == 0xBF { i = 3 }
        while i < prefix.count && (prefix[i] == 0x20 || prefix[i] == 0x0A || prefix[i] == 0x0D || prefix[i] == 0x09) {
            i += 1
        }
        return i < prefix.count && prefix[i] == 0x3C
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count, let first = needle.first else { return false }
        var i = 0
        while i + needle.count <= haystack.count {
            if haystack[i] == first && Array(haystack[i..<(i + needle.count)]) == needle { return true }
            i += 1
        }
        return false
    }

    /// Whether a path inside a zip or folder could be the export document: an `.xml` at most two
    /// folders deep, not `export_cda.xml`, not macOS resource forks (`__MACOSX/`, `._export.xml`).
    static func isDocumentCandidate(_ path: String) -> Bool {
        let components = path.split(separator: "/")
        guard let name = components.last, components.count <= 3 else { return false }
        let lowered = name.lowercased()
        guard lowered.hasSuffix(".xml"), lowered != "export_cda.xml", !name.hasPrefix("._") else { return false }
        return !components.contains("__MACOSX")
    }

    /// Prefers `apple_health_export/x.xml`, then a top-level `x.xml`, then deeper ones.
    static func candidateRank(_ path: String) -> Int {
        let components = path.split(separator: "/")
        if components.count == 2 && components[0] == "apple_health_export" { return 0 }
        if components.count == 1 { return 1 }
        if components.count >= 2 && components[components.count - 2] == "apple_health_export" { return 2 }
        return 3
    }
}
