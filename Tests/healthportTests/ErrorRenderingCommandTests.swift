import Foundation
import HealthTestSupport
import Testing

/// The command line's diagnostics for failures whose messages once spelled its options in the
/// engine: the engine now holds the parts as values and the command line renders them
/// (`OptionNames`), and what a person sees is unchanged, byte for byte. The expected lines are
/// what `healthport` printed before errors carried fields (main at 88f0710), copied here.
@Suite struct ErrorRenderingCommandTests {
    static let older = Fixtures.sampleData.appendingPathComponent("export-older.zip").path

    static func expect(_ arguments: [String], status: Int32, stderr expected: String, in directory: URL? = nil) throws {
        let result = try CommandRunner.run(healthportBinary, arguments, currentDirectory: directory)
        #expect(result.status == status, "\(arguments)")
        #expect(result.stderrText == expected, "\(arguments)")
    }

    @Test func queryOptionsAreNamedAsOptions() throws {
        try Self.expect(
            ["query", sampleZip, "--where", "quantity >= AND x"], status: 64,
            stderr: "healthport: --where:1:13: error: expected a value after '>='\n  quantity >= AND x\n              ^\n")
        try Self.expect(
            ["convert", sampleZip, "--unit", "kg"], status: 64,
            stderr: "healthport: error: --unit needs --type: name the quantity types whose unit to change\n")
        try Self.expect(
            ["query", sampleZip, "--sort", "startDate:up"], status: 64,
            stderr: "healthport: error: --sort: direction must be asc or desc, not 'up'\n")
        try Self.expect(
            ["routes", sampleZip, "--type", "StepCount", "-o", FileManager.default.temporaryDirectory.appendingPathComponent("healthport-routes-\(UUID().uuidString)").path], status: 64,
            stderr: "healthport: error: routes belong to workouts: --type may only be Workout\n")
        try Self.expect(
            ["stats", sampleZip, "--type", "StepCount,HeartRate"], status: 64,
            stderr: "healthport: error: statistics need exactly one quantity or category type: --type StepCount, SleepAnalysis, …\n")
        try Self.expect(
            ["stats", sampleZip, "--type", "StepCount", "--anchor-date", "foo"], status: 64,
            stderr: "healthport: error: --anchor-date: invalid date 'foo'\n")
        try Self.expect(
            ["stats", sampleZip, "--type", "StepCount", "--tz", "Mars/Base"], status: 64,
            stderr: "healthport: error: unknown time zone 'Mars/Base' (a name such as Europe/Paris, or an offset such as +01:00)\n")
        try Self.expect(
            ["query", sampleZip, "--format", "csv"], status: 64,
            stderr: "healthport: error: CSV on standard output holds one table: select one type with --type, or write a folder of tables with --output DIR\n")
        try Self.expect(
            ["convert", sampleZip, "--format", "parquet"], status: 64,
            stderr: "healthport: error: Parquet is written to files (its footer comes last, and readers seek): use --output DIR, or --output FILE.parquet for one table\n")
    }

    @Test func storeAndChangeOptionsAreNamedAsOptions() throws {
        let folder = try Fixtures.temporaryDirectory()
        let store = folder.appendingPathComponent("health.sqlite").path
        try Self.expect(
            ["query", "--store", store], status: 66,
            stderr: "healthport: error: \(store): no store here (create one with healthport import EXPORT --store \(store))\n")
        #expect(try healthport("import", sampleZip, "--store", store, "-q").status == 0)
        try Self.expect(
            ["changes", "--store", store, "--anchor", "5000000"], status: 64,
            stderr: "healthport: error: \(store): the anchor is ahead of this store (was the store restored from an older copy?)\n")
        try Self.expect(
            ["changes", "--store", store, "--follow", "--format", "json"], status: 64,
            stderr: "healthport: error: --follow writes NDJSON to standard output, a batch after another (use --format ndjson and no --output)\n")
        try Self.expect(
            ["changes", "--store", store, "--format", "export"], status: 64,
            stderr: "healthport: error: --format export writes objects, not changes: use ndjson, json, csv, parquet or fhir\n")
        try Self.expect(
            ["import", Self.older, "--store", store], status: 65,
            stderr: "healthport: error: \(store): the export is older than the last one imported; importing it would delete everything newer (use --force to import it anyway)\n")
    }

    @Test func authorizationFailuresShowHealthKitsCode() throws {
        let folder = try Fixtures.temporaryDirectory()
        let policy = folder.appendingPathComponent("policy.json").path
        try Self.expect(
            ["auth", "request", "--policy", policy, "--read", "StepCount", "--grant"], status: 64,
            stderr: "healthport: error: \(policy) does not exist: name the consumer with --consumer\n")
        #expect(try healthport("auth", "request", "--policy", policy, "--consumer", "Club", "--read", "StepCount", "--grant").status == 0)
        try Self.expect(
            ["auth", "request", "--policy", policy, "--read", "VisionPrescription", "--grant"], status: 64,
            stderr: "healthport: error: errorInvalidArgument (3): HKVisionPrescriptionTypeIdentifier is read object by object: use auth request-per-object\n")
        try Self.expect(
            ["auth", "request", "--policy", policy, "--read", "StepCont", "--grant"], status: 64,
            stderr: "healthport: error: unknown type 'StepCont' (did you mean StepCount?)\n")
        try Self.expect(
            ["query", sampleZip, "--type", "BodyMass", "--policy", policy], status: 77,
            stderr: "healthport: error: errorAuthorizationNotDetermined (5): Club has not requested authorization to read HKQuantityTypeIdentifierBodyMass\n")
    }

    @Test func batchOptionsAreNamedAsOptions() throws {
        let folder = try Fixtures.temporaryDirectory()
        try Self.expect(
            ["convert", sampleZip, Self.older, "--partition", "person,person", "-o", folder.appendingPathComponent("a").path],
            status: 64, stderr: "healthport: error: --partition: 'person' is given twice\n")
        try Self.expect(
            ["convert", sampleZip, Self.older, "--partition", "person", "--format", "csv", "-o", folder.appendingPathComponent("b").path],
            status: 64, stderr: "healthport: error: CSV holds one table per file: partition by type too (--partition person,type)\n")
        // A failed input is a note the command line renders: the cut-off zip's hint names --salvage.
        let cut = folder.appendingPathComponent("cut.zip")
        try Data(try Data(contentsOf: URL(fileURLWithPath: sampleZip)).prefix(100_000)).write(to: cut)
        try Self.expect(
            ["convert", cut.path, "--partition", "person", "-o", folder.appendingPathComponent("c").path, "--type", "StepCount"],
            status: 65,
            stderr: """
                healthport: \(cut.path)(apple_health_export/export.xml): error: the zip archive is cut off after byte 100000 (its end, with the directory of its contents, is missing); --salvage converts the objects before the cut
                healthport: error: 1 of 1 exports failed; see \(folder.appendingPathComponent("c").path)/_manifest.json

                """)
    }
}
