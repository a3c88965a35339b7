import Foundation
import HealthExport
import HealthModel
import HealthQuery
import HealthTestSupport
import Testing

/// The export reader takes a Health Connect export as it takes Apple's: the zip or the
/// database, told apart from Apple's by content, read through the same gate.
@Suite struct HealthConnectInputTests {
    @Test(arguments: [true, false]) func theZipOrTheDatabaseIsRecognisedByContent(zipped: Bool) throws {
        let fixture = try HealthConnectFixture.make()
        let reader = try ExportReader(.path(zipped ? fixture.zip : fixture.database))
        #expect(reader.layout.container == .healthConnect)
        #expect(reader.layout.documentPath == (zipped ? "health_connect_export.db" : nil))
        let collector = ObjectCollector()
        let summary = try reader.read(QueryExecutor.everything, into: collector)
        // The 86 objects HealthConnectReaderTests counts.
        #expect(collector.objects.count == 86)
        #expect(summary.objectCount == 86)
        #expect(collector.header.healthConnectPriority?.apps[.sleep] == ["com.google.android.apps.fitness"])
    }

    /// A query's types reach the reader: only the steps are read.
    @Test func aQuerysTypesAreTheTablesRead() throws {
        let fixture = try HealthConnectFixture.make()
        let reader = try ExportReader(.path(fixture.zip))
        var query = ObjectQuery()
        query.types = ["HKQuantityTypeIdentifierStepCount"]
        let collector = ObjectCollector()
        _ = try reader.read(QueryExecutor(query), into: collector)
        #expect(collector.objects.count == 11)
        #expect(collector.objects.allSatisfy { $0.objectType.identifier == "HKQuantityTypeIdentifierStepCount" })
    }

    /// A zip whose database is not Health Connect's is refused as no export, naming the table.
    @Test func aForeignDatabaseInAZipIsNoExport() throws {
        let fixture = try HealthConnectFixture.make()
        let foreign = try HealthConnectFixture.altered(fixture.database, sql: "DROP TABLE health_data_category_priority_table;")
        let error = #expect(throws: ExportError.self) { try ExportReader(.path(foreign)) }
        #expect(error?.code == .notAnExport)
        #expect(error?.message.contains("health_data_category_priority_table") == true)
    }

    /// A zip holding some other program's SQLite database and nothing else is refused with the
    /// database's fault (the table it lacks), not as an empty zip.
    @Test func aForeignDatabaseZippedIsRefusedForWhatItLacks() throws {
        let fixture = try HealthConnectFixture.make()
        let foreign = try HealthConnectFixture.altered(fixture.database, sql: "DROP TABLE device_info_table;")
        let zip = try Fixtures.temporaryDirectory().appendingPathComponent("other.zip").path
        let program = "import sys, zipfile\nzipfile.ZipFile(sys.argv[1], 'w').write(sys.argv[2], 'app.db')\n"
        let made = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", program, zip, foreign])
        #expect(made.status == 0)
        let error = #expect(throws: ExportError.self) { try ExportReader(.path(zip)) }
        #expect(error?.code == .notAnExport)
        #expect(error?.message.contains("device_info_table") == true)
        #expect(error?.location?.member == "app.db")
    }

    /// A zip whose database's deflate data is damaged (its compressed bytes cut short) is
    /// refused as a damaged archive, at once: the zip library's inflate looped on such data for
    /// minutes (found by the export harness, `Fuzz/regressions/export/healthconnect-damaged-deflate`),
    /// so the database is inflated by the export document's own bounded path.
    @Test func aDamagedDatabaseInAZipIsRefusedAtOnce() throws {
        let fixture = try HealthConnectFixture.make()
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture.zip)))
        // The local header (30 bytes and the name) stays; a run of the deflate data is zeroed.
        let start = 30 + "health_connect_export.db".utf8.count + 200
        for i in start..<min(start + 400, bytes.count - 100) { bytes[i] = 0 }
        let damaged = try Fixtures.temporaryDirectory().appendingPathComponent("damaged.zip")
        try Data(bytes).write(to: damaged)
        let started = Date()
        let error = #expect(throws: ExportError.self) {
            let reader = try ExportReader(.path(damaged.path))
            _ = try reader.read(.everything, into: CollectingSink())
        }
        // Damaged (bad deflate data) or inflating past the size its header declares: refused
        // either way, before any object.
        #expect(error?.code == .malformedArchive || error?.code == .limitExceeded, "\(String(describing: error))")
        #expect(Date().timeIntervalSince(started) < 30)
        let found = Fixtures.packageRoot.appendingPathComponent("Fuzz/regressions/export/healthconnect-damaged-deflate").path
        let again = #expect(throws: ExportError.self) {
            let reader = try ExportReader(.path(found))
            _ = try reader.read(.everything, into: CollectingSink())
        }
        #expect(again?.code == .malformedArchive, "\(String(describing: again))")
    }
}
