import Foundation
import Testing
import HealthExport
import HealthModel
import HealthQuery
import HealthTestSupport

/// What a read keeps about an export's quirks is bounded, whatever the export: a hostile one can
/// bring a new warning kind and a new unknown name with every record (here 12,000), and each was
/// kept. Past 10,000 kinds the rest are counted together; past 10,000 names passed through only
/// their total is kept. Sequential and parallel reads, and both parsers, say the same.
@Suite struct BoundedDiagnosticsTests {
    static let records = 12_000

    static func document() -> String {
        var text = "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n"
        for k in 0..<records {
            text += " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"x\" unit=\"count\" value=\"1\" startDate=\"2024-01-01 00:00:00 +0000\" endDate=\"2024-01-01 00:00:00 +0000\" unknown\(k)=\"1\"/>\n"
        }
        return text + "</HealthData>\n"
    }

    @Test func warningKindsAndPassedThroughNamesAreBounded() throws {
        let path = try ParallelReadTests.write(Self.document())
        let sequential = ParallelReadTests.sequential(path)
        let summary = try #require(sequential.summary)
        #expect(summary.warnings.count == 10_001)
        #expect(summary.warnings.last?.warning.key == "otherKinds")
        #expect(summary.warnings.last?.count == Self.records - 10_000)
        #expect(summary.warnings.last?.warning.location?.line == 2 + 10_001, "\(String(describing: summary.warnings.last))")
        #expect(summary.passedThrough == ["(more than 10000 names)": Self.records])
        #expect(sequential.warnings.count == 10_001)
        // In parallel: chunks past the bound are read again in order, so the same kinds are told apart.
        for chunkBytes in [16_384, 1 << 20] {
            let parallel = ParallelReadTests.parallel(path, chunkBytes: chunkBytes)
            ParallelReadTests.expectSame(sequential, parallel, "chunks of \(chunkBytes)")
            #expect(parallel.summary?.warnings.map(\.count) == summary.warnings.map(\.count))
        }
        // libxml2 alone counts the same.
        let reader = try ExportReader(.path(path))
        reader.parser = .libxml2
        let reference = try reader.read(.everything, into: ObjectCollector())
        #expect(reference.warnings.map(\.count) == summary.warnings.map(\.count))
        #expect(reference.passedThrough == summary.passedThrough)
    }
}
