import Foundation

/// The export document of a zip that was cut off (a download or copy that stopped): its end,
/// with the central directory, is missing, so zip libraries refuse it. The local file headers
/// at the front still say where each entry starts; this finds the document's and inflates what
/// there is of it, for `--salvage`.
struct CutOffZip {
    struct Entry {
        var name: String
        var dataOffset: Int64
        var method: UInt16
        /// From the local header; `nil` when a data descriptor follows the data instead.
        var compressedSize: Int64?
    }

    let path: String
    let document: Entry

    /// Finds the document by walking local headers from the start: an entry that
    /// `ContentSniffer.isDocumentCandidate` accepts. Entries whose size the header does not
    /// give are skipped by searching for the next local header signature.
    init?(path: String) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let fileSize = (try? handle.seekToEnd()).map(Int64.init) ?? 0
        var offset: Int64 = 0
        var found: Entry? = nil
        var candidates: [Entry] = []
        for _ in 0..<10_000 {
            guard offset + 30 <= fileSize else { break }
            try? handle.seek(toOffset: UInt64(offset))
            guard let header = try? handle.read(upToCount: 30), header.count == 30 else { break }
            let h = Array(header)
            func u16(_ i: Int) -> UInt16 { UInt16(h[i]) | UInt16(h[i + 1]) << 8 }
            func u32(_ i: Int) -> UInt32 { UInt32(h[i]) | UInt32(h[i + 1]) << 8 | UInt32(h[i + 2]) << 16 | UInt32(h[i + 3]) << 24 }
            guard u32(0) == 0x0403_4B50 else { break }
            let flags = u16(6)
            let method = u16(8)
            let compressed = u32(18)
            let nameLength = Int(u16(26))
            let extraLength = Int(u16(28))
            guard let nameData = try? handle.read(upToCount: nameLength), nameData.count == nameLength else { break }
            let name = String(decoding: nameData, as: UTF8.self)
            let dataOffset = offset + 30 + Int64(nameLength) + Int64(extraLength)
            let hasDescriptor = flags & 0x08 != 0
            let entry = Entry(
                name: name, dataOffset: dataOffset, method: method,
                compressedSize: hasDescriptor || compressed == 0xFFFF_FFFF ? nil : Int64(compressed))
            // Encrypted entries cannot be read; only stored and deflated ones can.
            if flags & 0x01 == 0, method == 0 || method == 8, ContentSniffer.isDocumentCandidate(name) {
                candidates.append(entry)
            }
            if let size = entry.compressedSize {
                offset = dataOffset + size
            } else {
                guard let next = Self.nextHeader(handle, from: dataOffset, fileSize: fileSize) else { break }
                offset = next
            }
        }
        // Without the directory there is no cheap look at each candidate's first bytes: the
        // best placed wins, and among equals the one named export.xml (a copy beside it,
        // `filtered.xml`, is not read instead).
        func order(_ entry: Entry) -> (Int, Int, String) {
            let isExport = entry.name.split(separator: "/").last?.lowercased() == "export.xml"
            return (ContentSniffer.candidateRank(entry.name), isExport ? 0 : 1, entry.name)
        }
        found = candidates.min { order($0) < order($1) }
        guard let found else { return nil }
        self.path = path
        self.document = found
    }

    /// The offset of the next local header signature at or after `from`.
    private static func nextHeader(_ handle: FileHandle, from: Int64, fileSize: Int64) -> Int64? {
        var position = from
        let signature: [UInt8] = [0x50, 0x4B, 0x03, 0x04]
        while position < fileSize {
            try? handle.seek(toOffset: UInt64(position))
            guard let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty else { return nil }
            let bytes = Array(chunk)
            if bytes.count >= 4 {
                for i in 0...(bytes.count - 4) where bytes[i] == 0x50 && Array(bytes[i..<(i + 4)]) == signature {
                    return position + Int64(i)
                }
            }
            position += Int64(max(1, bytes.count - 3))
        }
        return nil
    }

    /// Streams the document's bytes (inflated) to `push` until its data ends or the file does.
    ///
    /// - Returns: whether the entry's data was complete (it never is when the file was cut
    ///   inside it).
    func stream(chunkSize: Int, _ push: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(document.dataOffset))
        var remaining = document.compressedSize ?? Int64.max
        if document.method == 0 {
            while remaining > 0 {
                guard let chunk = try handle.read(upToCount: Int(min(Int64(chunkSize), remaining))), !chunk.isEmpty else { return false }
                remaining -= Int64(chunk.count)
                try chunk.withUnsafeBytes { try push($0) }
            }
            return true
        }
        guard let inflater = RawInflater(outputSize: chunkSize) else { return false }
        while remaining > 0 {
            guard let chunk = try handle.read(upToCount: Int(min(Int64(chunkSize), remaining))), !chunk.isEmpty else { return false }
            remaining -= Int64(chunk.count)
            do {
                try chunk.withUnsafeBytes { try inflater.inflate($0, push) }
            } catch let bad as RawInflater.BadData {
                throw ExportError(.malformedArchive, "the zip entry \(document.name) is damaged (inflate: \(bad.code))")
            }
            if inflater.ended { return true }
        }
        return false
    }
}
