import Foundation
import HealthExport
import HealthModel
import HealthTestSupport
import Testing

/// `import`, `query --store` and `changes --store` against exports with known changes.
@Suite struct StoreCommandTests {
    static func lines(_ result: CommandRunner.Result) -> [String] {
        result.stdoutText.split(separator: "\n").map(String.init)
    }

    /// Change lines without the begin and end lines (which differ in the anchor's form).
    static func changeLines(_ result: CommandRunner.Result) -> [String] {
        lines(result).filter { $0.hasPrefix("{\"type\":\"added\"") || $0.hasPrefix("{\"type\":\"deleted\"") }
    }

    static func storeAnchor(_ result: CommandRunner.Result) throws -> (anchor: Int, complete: Bool) {
        let end = try JSONSerialization.jsonObject(with: Data(lines(result).last!.utf8)) as! [String: Any]
        let anchor = end["newAnchor"] as! [String: Any]
        return (anchor["anchor"] as! Int, anchor["complete"] as! Bool)
    }

    /// A change stream's last line, its `newAnchor` object, or the same under the earlier
    /// `position` name, saved to a file, serve as the next store anchor.
    @Test func aSavedEndLineIsAnAnchor() throws {
        let store = try Fixtures.temporaryDirectory().appendingPathComponent("health.sqlite").path
        #expect(try healthport("import", sampleZip, "--store", store, "-q").status == 0)
        let first = try healthport("changes", "--store", store, "--limit", "10", "-q")
        #expect(first.status == 0, "\(first.stderrText)")
        let (anchor, complete) = try Self.storeAnchor(first)
        #expect(anchor > 0 && !complete)
        let expected = try healthport("changes", "--store", store, "--anchor", String(anchor), "--limit", "5", "-q")
        let directory = try Fixtures.temporaryDirectory()
        let endLine = Self.lines(first).last!
        let forms = [
            endLine,
            "{\"complete\":false,\"anchor\":\(anchor),\"file\":null}",
            "{\"type\":\"end\",\"added\":10,\"deleted\":0,\"newAnchor\":{\"complete\":false,\"position\":\(anchor),\"file\":null}}",
        ]
        for (i, form) in forms.enumerated() {
            let file = directory.appendingPathComponent("anchor-\(i).json")
            try Data((form + "\n").utf8).write(to: file)
            let next = try healthport("changes", "--store", store, "--anchor", file.path, "--limit", "5", "-q")
            #expect(next.status == 0, "\(form): \(next.stderrText)")
            #expect(next.stdout == expected.stdout, "\(form)")
        }
        let bad = directory.appendingPathComponent("bad.json")
        try Data("{\"complete\":true}\n".utf8).write(to: bad)
        let refused = try healthport("changes", "--store", store, "--anchor", bad.path, "-q")
        #expect(refused.status == 64 || refused.status == 65, "\(refused.status)")
        #expect(refused.stderrText.contains("not a store anchor"))
    }

    static func importSummary(_ result: CommandRunner.Result) -> String { result.stdoutText.trimmingCharacters(in: .newlines) }

    @Test func firstImportHoldsEveryObjectAndAnswersLikeTheExport() throws {
        let store = try Fixtures.temporaryDirectory().appendingPathComponent("health.sqlite").path
        let imported = try healthport("import", sampleZip, "--store", store, "-q")
        #expect(imported.status == 0, "\(imported.stderrText)")
        let manifest = try sampleManifest()
        #expect(Self.importSummary(imported) == "\(manifest.objectCount) objects, \(manifest.objectCount) added, 0 deleted; anchor \(manifest.objectCount)")
        // Private: the store and its WAL companions are mode 0600.
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: store + suffix) {
            let mode = try FileManager.default.attributesOfItem(atPath: store + suffix)[.posixPermissions] as! Int
            #expect(mode == 0o600, "\(suffix)")
        }
        let all = try healthport("query", "--store", store)
        let fromExport = try healthport("query", sampleZip, "-q")
        #expect(all.status == 0 && all.stdout == fromExport.stdout)
        #expect(Self.lines(all).count == manifest.objectCount + 1)
    }

    /// The SQL prefilter never changes an answer: every query gives the bytes the export gives.
    @Test(arguments: [
        ["--type", "HeartRate", "--where", "quantity > \"100 count/min\"", "--sort", "startDate:desc", "--limit", "20"],
        ["--type", "StepCount", "--start", "2024-01-03", "--end", "2024-01-04"],
        ["--type", "StepCount", "--start", "2024-01-03T10:00:00+01:00", "--end", "2024-01-04", "--strict-start"],
        ["--type", "StepCount,HeartRate", "--start", "2024-01-03T10:00:00+01:00", "--end", "2024-01-04", "--strict-end"],
        ["--type", "StepCount", "--start", "2024-01-05", "--strict-start", "--strict-end", "--end", "2024-01-06"],
        ["--where", "startDate >= \"2024-01-10\" AND metadata.HKMetadataKeyHeartRateMotionContext == 1"],
        ["--where", "endDate < CAST(\"2024-01-02T00:00:00+01:00\", \"NSDate\") OR sourceRevision.source.name BEGINSWITH[c] \"iphone\""],
        ["--where", "startDate == \"2024-01-07T08:00:00+01:00\""],
        ["--type", "ActivitySummary", "--start", "2024-01-03", "--end", "2024-01-05"],
        ["--type", "Workout", "--where", "duration > \"20 min\"", "--format", "csv"],
        ["--source", "Withings", "--format", "json"],
        ["--type", "BodyMass", "--unit", "lb", "--sort", "quantity:desc"],
        ["--policy", "POLICY"],
        ["--policy", "POLICY", "--where", "startDate > \"2024-01-04\""],
    ])
    func storeQueriesAnswerExactlyAsTheExport(arguments: [String]) throws {
        let store = try Self.sampleStore()
        var arguments = arguments
        if let index = arguments.firstIndex(of: "POLICY") {
            let policy = try Fixtures.temporaryDirectory().appendingPathComponent("policy.json")
            try Data(#"{"version": 1, "consumer": {"name": "Study"}, "read": {"StepCount": "granted", "HeartRate": "granted", "BodyMass": "denied"}}"#.utf8)
                .write(to: policy)
            arguments[index] = policy.path
        }
        let fromStore = try CommandRunner.run(healthportBinary, ["query", "--store", store, "--tz", "Europe/Paris"] + arguments)
        let fromExport = try CommandRunner.run(healthportBinary, ["query", sampleZip, "-q", "--tz", "Europe/Paris"] + arguments)
        #expect(fromStore.status == 0, "\(fromStore.stderrText)")
        #expect(fromStore.stdout == fromExport.stdout, "\(arguments)")
        #expect(fromStore.stderrText.isEmpty)
    }

    /// One store of the sample per test run (reads never change it).
    static let sharedStore: Result<String, Error> = Result {
        let store = try Fixtures.temporaryDirectory().appendingPathComponent("sample.sqlite").path
        let result = try healthport("import", sampleZip, "--store", store, "-q")
        guard result.status == 0 else { throw CocoaError(.fileWriteUnknown) }
        return store
    }

    static func sampleStore() throws -> String { try sharedStore.get() }

    @Test func reimportAddsTheNewRecordsTheDeletedAndMatchesDiff() throws {
        let pair = try ChangesCommandTests.makePair()
        let store = pair.directory.appendingPathComponent("health.sqlite").path
        let first = try healthport("import", pair.old, "--store", store, "-q")
        #expect(first.status == 0, "\(first.stderrText)")
        let oldCount = try ChangesCommandTests.objects(pair.old).count
        #expect(Self.importSummary(first).hasPrefix("\(oldCount) objects, \(oldCount) added, 0 deleted; anchor \(oldCount)"))

        let second = try healthport("import", pair.new, "--store", store, "-q")
        #expect(second.status == 0, "\(second.stderrText)")
        let diff = try healthport("diff", pair.old, pair.new, "-q")
        let expected = Self.changeLines(diff)
        let added = expected.filter { $0.hasPrefix("{\"type\":\"added\"") }.count
        let deleted = expected.count - added
        #expect(deleted == 4)
        let newCount = try ChangesCommandTests.objects(pair.new).count
        #expect(Self.importSummary(second) == "\(newCount) objects, \(added) added, \(deleted) deleted; anchor \(oldCount + added + deleted)")

        // Anchored changes since the first import are the diff, line for line and in order.
        let changes = try healthport("changes", "--store", store, "--anchor", "\(oldCount)")
        #expect(Self.changeLines(changes) == expected)
        #expect(try Self.storeAnchor(changes) == (oldCount + added + deleted, true))
        // The tombstones are the objects the diff deleted.
        let deletedUUIDs = Set(expected.filter { $0.hasPrefix("{\"type\":\"deleted\"") }.map { line in
            (try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any])["uuid"] as! String
        })
        #expect(deletedUUIDs == Set([pair.removed, pair.modifiedOld, pair.correlationOld, pair.workoutOld].map(\.uuidString)))
        // The store now answers like the new export.
        #expect(try healthport("query", "--store", store, "--sort", "uuid").stdout
            == (try healthport("query", pair.new, "-q", "--sort", "uuid")).stdout)
        // Filters apply to changes as they do to the diff.
        let stepDiff = try healthport("diff", pair.old, pair.new, "-q", "--type", "StepCount")
        let stepChanges = try healthport("changes", "--store", store, "--anchor", "\(oldCount)", "--type", "StepCount")
        #expect(Self.changeLines(stepChanges) == Self.changeLines(stepDiff))

        // So does a policy: deletions of hidden types are hidden too.
        let policy = pair.directory.appendingPathComponent("policy.json").path
        try Data(#"{"version": 1, "consumer": {"name": "Steps"}, "read": {"StepCount": "granted"}}"#.utf8)
            .write(to: URL(fileURLWithPath: policy))
        let policyDiff = try healthport("diff", pair.old, pair.new, "--policy", policy)
        let policyChanges = try healthport("changes", "--store", store, "--anchor", "\(oldCount)", "--policy", policy)
        #expect(Self.changeLines(policyChanges) == Self.changeLines(policyDiff))
        #expect(Self.changeLines(policyChanges).count > 2)
        #expect(Self.changeLines(policyChanges).allSatisfy { $0.contains("HKQuantityTypeIdentifierStepCount") })
        #expect(policyChanges.stderrText.isEmpty)

        // Importing the same export again changes nothing.
        let again = try healthport("import", pair.new, "--store", store, "-q")
        #expect(Self.importSummary(again) == "\(newCount) objects, nothing new; anchor \(oldCount + added + deleted)")
        let none = try healthport("changes", "--store", store, "--anchor", "\(oldCount + added + deleted)")
        #expect(Self.changeLines(none).isEmpty)

        // A removed object that comes back is added again and loses its tombstone.
        let third = try healthport("import", pair.old, "--store", store, "-q", "--force")
        #expect(third.status == 0, "\(third.stderrText)")
        let back = try healthport("changes", "--store", store, "--anchor", "\(oldCount + added + deleted)")
        let backAdded = Set(Self.changeLines(back).filter { $0.hasPrefix("{\"type\":\"added\"") }.compactMap { line -> String? in
            let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["object"] as? [String: Any]
            return object?["uuid"] as? String
        })
        #expect(backAdded == deletedUUIDs)
        #expect(try healthport("query", "--store", store, "--sort", "uuid").stdout
            == (try healthport("query", pair.old, "-q", "--sort", "uuid")).stdout)
    }

    @Test func batchesOverTheStoreEqualOneRunAndAnchorsRoundTripThroughFiles() throws {
        let store = try Self.sampleStore()
        let single = try healthport("changes", "--store", store, "--anchor", "0", "--type", "Workout,BodyMass,BloodPressure")
        let everything = Self.changeLines(single)
        #expect(everything.count > 10)
        let anchorFile = try Fixtures.temporaryDirectory().appendingPathComponent("anchor").path
        var collected: [String] = []
        var rounds = 0
        var previous = 0
        while true {
            rounds += 1
            var arguments = ["changes", "--store", store, "--limit", "4", "--type", "Workout,BodyMass,BloodPressure", "--anchor-output", anchorFile]
            if rounds > 1 { arguments += ["--anchor", anchorFile] }
            let batch = try CommandRunner.run(healthportBinary, arguments)
            #expect(batch.status == 0, "\(batch.stderrText)")
            let changes = Self.changeLines(batch)
            #expect(changes.count <= 4)
            collected += changes
            let (anchor, complete) = try Self.storeAnchor(batch)
            #expect(anchor >= previous)
            previous = anchor
            let saved = try String(contentsOfFile: anchorFile, encoding: .utf8)
            #expect(saved == "\(anchor)\n")
            if complete || rounds > 100 { break }
        }
        #expect(collected == everything)
        #expect(rounds == (everything.count + 3) / 4 + (everything.count % 4 == 0 ? 1 : 0))
    }

    @Test func storeLocationComesFromTheEnvironmentAndTheDataHome() throws {
        let directory = try Fixtures.temporaryDirectory()
        let dataHome = directory.appendingPathComponent("data").path
        let imported = try CommandRunner.run(
            healthportBinary, ["import", sampleZip, "-q"], environment: ["XDG_DATA_HOME": dataHome, "HEALTHPORT_STORE": ""])
        #expect(imported.status == 0, "\(imported.stderrText)")
        let path = dataHome + "/healthport/health.sqlite"
        #expect(FileManager.default.fileExists(atPath: path))
        let folderMode = try FileManager.default.attributesOfItem(atPath: dataHome + "/healthport")[.posixPermissions] as! Int
        #expect(folderMode == 0o700)
        let viaEnvironment = try CommandRunner.run(
            healthportBinary, ["query", "--type", "Workout", "--format", "csv"], environment: ["HEALTHPORT_STORE": path])
        #expect(viaEnvironment.status == 0)
        #expect(viaEnvironment.stdout == (try healthport("query", sampleZip, "--type", "Workout", "--format", "csv", "-q")).stdout)
        let both = try healthport("query", sampleZip, "--store", path)
        #expect(both.status == 64)
    }

    @Test func foreignOlderAndIncompatibleInputsAreRefusedClearly() throws {
        let directory = try Fixtures.temporaryDirectory()
        let store = directory.appendingPathComponent("health.sqlite").path
        let missing = try healthport("query", "--store", store)
        #expect(missing.status == 66 && missing.stderrText.contains("no store here"))
        #expect(!FileManager.default.fileExists(atPath: store))

        #expect(try healthport("import", sampleZip, "--store", store, "-q").status == 0)
        // Another person's export: almost nothing in common.
        let other = try Fixtures.temporaryDirectory()
        var options = ExportGenerator.Options()
        options.seed = 99
        options.days = 5
        options.firstDay = CalendarDate(year: 2025, month: 3, day: 1)
        _ = try ExportGenerator(options: options).writeFolder(at: other, documentName: "export.xml")
        let foreign = try healthport("import", other.path, "--store", store, "-q")
        #expect(foreign.status == 65 && foreign.stderrText.contains("another person"), "\(foreign.stderrText)")
        #expect(foreign.stderrText.split(separator: "\n").count == 1)
        // An older export than the last one imported.
        let older = try healthport("import", Fixtures.sampleData.appendingPathComponent("export-older.zip").path, "--store", store, "-q")
        #expect(older.status == 65 && older.stderrText.contains("older"), "\(older.stderrText)")
        let manifest = try sampleManifest()
        let stats = try healthport("query", "--store", store, "--type", "StepCount", "--limit", "0", "--format", "csv")
        #expect(stats.status == 0)
        let count = try healthport("changes", "--store", store, "--anchor", "0", "--limit", "1")
        #expect(try Self.storeAnchor(count).anchor == 1)
        let all = try healthport("changes", "--store", store, "--anchor", "0")
        #expect(Self.changeLines(all).count == manifest.objectCount)

        // An anchor ahead of the store, and a file anchor of an export.
        let ahead = try healthport("changes", "--store", store, "--anchor", "999999")
        #expect(ahead.status == 64 && ahead.stderrText.contains("not a position of this store"))
        let fileAnchor = directory.appendingPathComponent("export.anchor").path
        #expect(try healthport("anchor", sampleZip, "-o", fileAnchor, "-q").status == 0)
        let wrongKind = try healthport("changes", "--store", store, "--anchor", fileAnchor)
        #expect(wrongKind.status == 64 && wrongKind.stderrText.contains("not a store anchor"))

        // Not a store at all.
        let text = directory.appendingPathComponent("notes.sqlite").path
        let notes = Data("just some text, long enough not to be taken for an empty database file".utf8)
        try notes.write(to: URL(fileURLWithPath: text))
        let notStore = try healthport("query", "--store", text)
        #expect(notStore.status == 65 && notStore.stderrText.contains("not a healthport store"), "\(notStore.stderrText)")
        let notStoreImport = try healthport("import", sampleZip, "--store", text, "-q")
        #expect(notStoreImport.status == 65)
        #expect(try Data(contentsOf: URL(fileURLWithPath: text)) == notes)
    }
}
