import Foundation
import HealthTestSupport
import Testing

@testable import HealthExport

/// `ZipDirectory.hasEndRecord`, which decides whether the zip library is asked at all: it must
/// find the end of a central directory wherever a zip reader would (behind an archive comment
/// too), and nothing in a file cut off before it.
@Suite struct ZipEndRecordTests {
    static let sample = Fixtures.sampleData.appendingPathComponent("export.zip").path

    static func copy(_ bytes: [UInt8]) throws -> String {
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("archive.zip").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aWholeZipHasOne() {
        #expect(ZipDirectory.hasEndRecord(path: Self.sample))
    }

    /// A comment of 1,000 bytes after the end record (its length in the record's last two
    /// bytes): still found, and the archive still opens.
    @Test func behindAnArchiveCommentItIsFound() throws {
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.sample)))
        let comment = 1000
        bytes[bytes.count - 2] = UInt8(comment & 0xFF)
        bytes[bytes.count - 1] = UInt8(comment >> 8)
        bytes += [UInt8](repeating: 0x20, count: comment)
        let path = try Self.copy(bytes)
        #expect(ZipDirectory.hasEndRecord(path: path))
        #expect(throws: Never.self) { try ExportReader(.path(path)) }
    }

    /// Cut off before its directory (the last 30 KB gone), too short to hold a record, or not a
    /// file: none.
    @Test func aCutOffZipHasNone() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.sample)))
        #expect(!ZipDirectory.hasEndRecord(path: try Self.copy(Array(bytes.dropLast(30_000)))))
        #expect(!ZipDirectory.hasEndRecord(path: try Self.copy(Array(bytes.prefix(21)))))
        #expect(!ZipDirectory.hasEndRecord(path: "/nonexistent/archive.zip"))
    }
}
