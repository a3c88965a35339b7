import Foundation

/// The side files of a zipped export (routes, ECGs, FHIR resources, the CDA document), found
/// by the central directory and inflated by the document's own bounded path
/// (`ZipDocumentStream`: zlib, no more than the size the directory declares, the CRC checked).
///
/// Why not the zip library, as before: on an entry whose sizes a mutation had changed, its
/// extraction went on calling `read(2)` past the file's end for as long as it was let (a finding
/// of the export harness: an ECG of a damaged zip, 75 s and counting), as its inflate had on the
/// Health Connect database's damaged deflate data (70f02f3). Nothing a stranger's zip holds is
/// inflated by it now.
///
/// The descriptor is opened with the reader, so a zip given on standard input (spooled to a
/// temporary file that is unlinked at once) keeps its side files readable.
final class ZipSideFiles: @unchecked Sendable {
    private let descriptor: Int32
    private let entries: [String: ZipDirectory.Entry]

    /// `nil` when the zip cannot be opened or has no readable central directory.
    init?(path: String) {
        guard let directory = ZipDirectory(path: path) else { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        descriptor = fd
        // The opening refuses an archive that names a member twice; the first stands regardless.
        entries = Dictionary(directory.entries.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    deinit { close(descriptor) }

    /// The directory's entry of a member (its full path in the zip).
    subscript(name: String) -> ZipDirectory.Entry? { entries[name] }

    /// Streams a member, inflated, in chunks of at most `chunkSize` bytes.
    ///
    /// - Throws: `ExportError.malformedArchive` (located at the member) for a damaged entry,
    ///   `.limitExceeded` for one inflating past its declared size, or what `body` throws.
    func stream(_ entry: ZipDirectory.Entry, chunkSize: Int, location: SourceLocation, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let stream = ZipDocumentStream(sharing: descriptor, entry: entry) else {
            throw ExportError(.malformedArchive, "the zip archive cannot be read again (\(String(cString: strerror(errno))))", at: location)
        }
        try stream.stream(chunkSize: chunkSize, location: location, body)
    }
}
