import Foundation
import HealthModel
import HealthQuery
import HealthTestSupport
import Testing

@testable import HealthExport

/// A zip member whose deflate data opens a stored block longer than the rest of the file
/// (`00 FF FF 00 00`: not the last block, 65,535 bytes to follow) is damaged: the zip library's
/// extraction read on past the entry into the rest of the archive, then called `read(2)` at the
/// file's end for as long as it was let, since its inflate neither failed nor ended (a finding of
/// the export harness: an ECG of a mutated zip, 75 s and counting). Every member is now inflated
/// by `ZipDocumentStream`, which reads the entry's compressed size and no more: refused at once.
@Suite(.timeLimit(.minutes(1))) struct ZipDamagedMemberTests {
    static let document = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2024-01-02 10:00:00 +0100"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2024-01-01 09:00:00 +0100" endDate="2024-01-01 09:10:00 +0100" value="500"/>
        </HealthData>

        """
    static let ecg = """
        Name,Someone
        Recorded Date,2024-01-01 09:00:00 +0100
        Classification,Sinus Rhythm
        Sample Rate,512 hertz

        Lead I
        Unit,µV

        12.5
        13.25

        """

    /// A zip of the document (stored, unless `withDocument` is false) and `member` holding
    /// `text` behind the damaged block header (deflate): its sizes and CRC are those of `text`,
    /// as a zip tool would write them.
    static func zip(damaged member: String, text: String, withDocument: Bool = true) throws -> String {
        var entries: [(name: String, method: UInt16, data: [UInt8], crc: UInt32, size: Int)] = []
        let document = Array(Self.document.utf8)
        if withDocument { entries.append(("apple_health_export/export.xml", 0, document, crc32(document), document.count)) }
        let plain = Array(text.utf8)
        entries.append((member, 8, [0x00, 0xFF, 0xFF, 0x00, 0x00] + plain, crc32(plain), plain.count))
        var bytes: [UInt8] = []
        var directory: [UInt8] = []
        func u16(_ value: Int, _ into: inout [UInt8]) { into += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: UInt32, _ into: inout [UInt8]) { for shift in [0, 8, 16, 24] { into.append(UInt8(value >> UInt32(shift) & 0xFF)) } }
        for entry in entries {
            let offset = UInt32(bytes.count)
            let name = Array(entry.name.utf8)
            u32(0x0403_4B50, &bytes); u16(20, &bytes); u16(0, &bytes); u16(Int(entry.method), &bytes); u16(0, &bytes); u16(0x21, &bytes)
            u32(entry.crc, &bytes); u32(UInt32(entry.data.count), &bytes); u32(UInt32(entry.size), &bytes); u16(name.count, &bytes); u16(0, &bytes)
            bytes += name + entry.data
            u32(0x0201_4B50, &directory); u16(20, &directory); u16(20, &directory); u16(0, &directory); u16(Int(entry.method), &directory)
            u16(0, &directory); u16(0x21, &directory); u32(entry.crc, &directory); u32(UInt32(entry.data.count), &directory)
            u32(UInt32(entry.size), &directory); u16(name.count, &directory); u16(0, &directory); u16(0, &directory); u16(0, &directory)
            u16(0, &directory); u32(0, &directory); u32(offset, &directory)
            directory += name
        }
        let directoryOffset = UInt32(bytes.count)
        bytes += directory
        u32(0x0605_4B50, &bytes); u16(0, &bytes); u16(0, &bytes); u16(entries.count, &bytes); u16(entries.count, &bytes)
        u32(UInt32(directory.count), &bytes); u32(directoryOffset, &bytes); u16(0, &bytes)
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("damaged.zip").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// zlib's CRC-32, bit by bit (the test's own, not the code's under test).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    @Test func aDamagedElectrocardiogramIsAWarningAtOnce() throws {
        let path = try Self.zip(damaged: "apple_health_export/electrocardiograms/ecg_2024-01-01.csv", text: Self.ecg)
        let reader = try ExportReader(.path(path))
        var warnings: [ExportError] = []
        var recordings = 0
        try reader.electrocardiograms(QueryExecutor(ObjectQuery()), warning: { warnings.append($0) }) { _, _ in recordings += 1 }
        #expect(recordings == 0)
        #expect(warnings.map(\.code) == [.malformedArchive], "\(warnings)")
        #expect(warnings.first?.location?.member == "apple_health_export/electrocardiograms/ecg_2024-01-01.csv")
        // The document itself reads.
        let sink = CollectingSink()
        _ = try ExportReader(.path(path)).read(.everything, into: sink)
        #expect(sink.objects.count == 1)
    }

    /// The same damage in another XML member, which the opening inflates to see whether it is
    /// the export's document: passed over (the export's document is found and read), where the
    /// zip library's loop held the opening of every command.
    @Test func aDamagedXMLMemberBesideTheDocumentIsPassedOver() throws {
        let path = try Self.zip(damaged: "apple_health_export/export_cda.xml", text: "<?xml version=\"1.0\"?>\n<ClinicalDocument/>\n")
        let sink = CollectingSink()
        _ = try ExportReader(.path(path)).read(.everything, into: sink)
        #expect(sink.objects.count == 1)
    }

    /// The damaged member is the export's document: it is still found (its first bytes are an
    /// export's), and its read is refused with the member named.
    @Test func aDamagedDocumentIsRefusedWithItsPlace() throws {
        let path = try Self.zip(damaged: "apple_health_export/export.xml", text: Self.document, withDocument: false)
        let error = #expect(throws: ExportError.self) {
            _ = try ExportReader(.path(path)).read(.everything, into: CollectingSink())
        }
        #expect(error?.code == .malformedArchive, "\(String(describing: error))")
        #expect(error?.location?.member == "apple_health_export/export.xml")
    }
}
