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

    /// Which of the documents in a zip or folder whose first bytes say `HealthData` is the
    /// export's, or the error saying why none is.
    ///
    /// One alone is it, whatever its name (localized phones write `exportar.xml`, `导出.xml`).
    /// When several qualify (a filtered copy written into the folder, two exports unzipped
    /// side by side), the one named `export.xml` wins if exactly one is; otherwise the reader
    /// refuses, listing them, rather than read one silently: which one the person means cannot
    /// be known, and reading the wrong one looks like success.
    ///
    /// - Parameters:
    ///   - documents: paths inside the container, in the order they were found.
    ///   - container: "zip archive" or "folder", for the message.
    ///   - hint: how to name the one meant, ending the message.
    static func choose(_ documents: [String], in container: String, hint: String, at location: SourceLocation) throws -> String {
        if documents.count == 1 { return documents[0] }
        guard !documents.isEmpty else {
            throw ExportError(.noExportDocument, "the \(container) holds no Apple Health export document", at: location)
        }
        let named = documents.filter { $0.split(separator: "/").last?.lowercased() == "export.xml" }
        if named.count == 1 { return named[0] }
        let shown = documents.sorted().prefix(4).map { String($0.prefix(120)) }.joined(separator: ", ")
        let more = documents.count > 4 ? ", …" : ""
        let why = named.isEmpty ? "none is named export.xml" : "\(named.count) are named export.xml"
        throw ExportError(
            .notAnExport, "the \(container) holds \(documents.count) Apple Health export documents (\(shown)\(more)) and \(why); \(hint)",
            at: location)
    }
}
