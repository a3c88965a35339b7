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

    static func storeAnchor(_ result: CommandRunner.Result) throws -> (anchor: String, complete: Bool) {
        let last = try #require(lines(result).last)
        let end = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        let anchor = try #require(end["newAnchor"] as? [String: Any])
        return (try #require(anchor["anchor"] as? String), try #require(anchor["complete"] as? Bool))
    }

    /// An import that saves the store's anchor after it (`--anchor-output`): the owner's
    /// anchor, every type included; and what it printed.
    static func importSavingAnchor(_ arguments: String...) throws -> (result: CommandRunner.Result, anchor: String) {
        let file = try Fixtures.temporaryDirectory().appendingPathComponent("import.anchor").path
        let result = try healthport(["import"] + arguments + ["--anchor-output", file, "-q"])
        #expect(result.status == 0, "\(result.stderrText)")
        let anchor = try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .newlines)
        #expect(anchor.hasPrefix("s1"))
        return (result, anchor)
    }

    /// A change stream's last line, or its `newAnchor` object, saved to a file, serve as the
    /// next store anchor.
    @Test func aSavedEndLineIsAnAnchor() throws {
        let store = try Fixtures.temporaryDirectory().appendingPathComponent("health.sqlite").path
        #expect(try healthport("import", sampleZip, "--store", store, "-q").status == 0)
        let first = try healthport("changes", "--store", store, "--limit", "10", "-q")
        #expect(first.status == 0, "\(first.stderrText)")
        let (anchor, complete) = try Self.storeAnchor(first)
        #expect(anchor.hasPrefix("s1") && !complete)
        let expected = try healthport("changes", "--store", store, "--anchor", anchor, "--limit", "5", "-q")
        #expect(Self.changeLines(expected).count == 5)
        let directory = try Fixtures.temporaryDirectory()
        let endLine = Self.lines(first).last!
        let forms = [
            endLine,
            "{\"complete\":false,\"anchor\":\"\(anchor)\",\"file\":null}",
            anchor,
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
        #expect(Self.importSummary(imported) == "\(manifest.objectCount) objects, \(manifest.objectCount) added, 0 deleted")
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
        let (first, firstAnchor) = try Self.importSavingAnchor(pair.old, "--store", store)
        let oldCount = try ChangesCommandTests.objects(pair.old).count
        #expect(Self.importSummary(first) == "\(oldCount) objects, \(oldCount) added, 0 deleted")

        let (second, secondAnchor) = try Self.importSavingAnchor(pair.new, "--store", store)
        let diff = try healthport("diff", pair.old, pair.new, "-q")
        let expected = Self.changeLines(diff)
        let added = expected.filter { $0.hasPrefix("{\"type\":\"added\"") }.count
        let deleted = expected.count - added
        #expect(deleted == 4)
        let newCount = try ChangesCommandTests.objects(pair.new).count
        #expect(Self.importSummary(second) == "\(newCount) objects, \(added) added, \(deleted) deleted")
        #expect(secondAnchor != firstAnchor)

        // Anchored changes since the first import are the diff, line for line and in order.
        let changes = try healthport("changes", "--store", store, "--anchor", firstAnchor)
        #expect(Self.changeLines(changes) == expected)
        #expect(try Self.storeAnchor(changes) == (secondAnchor, true))
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
        let stepChanges = try healthport("changes", "--store", store, "--anchor", firstAnchor, "--type", "StepCount")
        #expect(Self.changeLines(stepChanges) == Self.changeLines(stepDiff))

        // So does a policy: deletions of hidden types are hidden too.
        let policy = pair.directory.appendingPathComponent("policy.json").path
        try Data(#"{"version": 1, "consumer": {"name": "Steps"}, "read": {"StepCount": "granted"}}"#.utf8)
            .write(to: URL(fileURLWithPath: policy))
        let policyDiff = try healthport("diff", pair.old, pair.new, "--policy", policy)
        let policyChanges = try healthport("changes", "--store", store, "--anchor", firstAnchor, "--policy", policy)
        #expect(Self.changeLines(policyChanges) == Self.changeLines(policyDiff))
        #expect(Self.changeLines(policyChanges).count > 2)
        #expect(Self.changeLines(policyChanges).allSatisfy { $0.contains("HKQuantityTypeIdentifierStepCount") })
        #expect(policyChanges.stderrText.isEmpty)

        // Importing the same export again changes nothing.
        let (again, againAnchor) = try Self.importSavingAnchor(pair.new, "--store", store)
        #expect(Self.importSummary(again) == "\(newCount) objects, nothing new")
        #expect(againAnchor == secondAnchor)
        let none = try healthport("changes", "--store", store, "--anchor", secondAnchor)
        #expect(Self.changeLines(none).isEmpty)

        // A removed object that comes back is added again and loses its tombstone.
        let third = try healthport("import", pair.old, "--store", store, "-q", "--force")
        #expect(third.status == 0, "\(third.stderrText)")
        let back = try healthport("changes", "--store", store, "--anchor", secondAnchor)
        let backAdded = Set(Self.changeLines(back).filter { $0.hasPrefix("{\"type\":\"added\"") }.compactMap { line -> String? in
            let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["object"] as? [String: Any]
            return object?["uuid"] as? String
        })
        #expect(backAdded == deletedUUIDs)
        #expect(try healthport("query", "--store", store, "--sort", "uuid").stdout
            == (try healthport("query", pair.old, "-q", "--sort", "uuid")).stdout)
    }

    /// Issue 36 (3): a consumer allowed steps alone learns nothing of the heart rates an
    /// import deletes or adds: its changes, their anchor and its anchor file are byte for byte
    /// as they were (the anchor once moved from 5502 to 5552 with 50 hidden deletions, and was
    /// the store's position in the clear).
    @Test func importsOfHiddenTypesLeaveAConsumersChangesAsTheyWere() throws {
        let directory = try Fixtures.temporaryDirectory()
        let store = directory.appendingPathComponent("health.sqlite").path
        #expect(try healthport("import", sampleZip, "--store", store, "-q").status == 0)
        let policy = directory.appendingPathComponent("steps.json").path
        try Data(#"{"version": 1, "consumer": {"name": "Steps"}, "read": {"StepCount": "granted"}}"#.utf8).write(to: URL(fileURLWithPath: policy))
        let anchorFile = directory.appendingPathComponent("steps.anchor").path
        let owner = try Self.storeAnchor(try healthport("changes", "--store", store)).anchor
        func consumerView() throws -> [Data] {
            let everything = try healthport("changes", "--store", store, "--policy", policy)
            let anchor = try Self.storeAnchor(everything).anchor
            let since = try healthport("changes", "--store", store, "--policy", policy, "--anchor", anchor, "--anchor-output", anchorFile)
            let limited = try healthport("changes", "--store", store, "--policy", policy, "--limit", "3", "--format", "json")
            #expect(everything.status == 0 && since.status == 0 && limited.status == 0)
            return [everything.stdout, since.stdout, limited.stdout, try Data(contentsOf: URL(fileURLWithPath: anchorFile))]
        }
        let before = try consumerView()
        #expect(!String(decoding: before[0], as: UTF8.self).contains("HeartRate"))

        // The same export without 50 heart rates, imported: 50 tombstones of a hidden type.
        var dropped = 0
        let lines = try healthport("convert", sampleZip, "-q").stdoutText.split(separator: "\n").filter { line in
            guard dropped < 50, line.contains("\"sampleType\":\"HKQuantityTypeIdentifierHeartRate\"") else { return true }
            dropped += 1
            return false
        }
        #expect(dropped == 50)
        let fewer = directory.appendingPathComponent("fewer.ndjson")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: fewer)
        let deleting = try healthport("import", fewer.path, "--store", store, "-q")
        #expect(deleting.status == 0, "\(deleting.stderrText)")
        #expect(deleting.stdoutText.contains("0 added, 50 deleted"), "\(deleting.stdoutText)")
        #expect(try consumerView() == before)
        // The owner, who sees everything, sees the 50 deletions.
        let ownerChanges = try healthport("changes", "--store", store, "--anchor", owner)
        #expect(Self.changeLines(ownerChanges).count == 50)
        #expect(Self.changeLines(ownerChanges).allSatisfy { $0.hasPrefix("{\"type\":\"deleted\"") && $0.contains("HeartRate") })
        // And back again: 50 hidden additions.
        let adding = try healthport("import", sampleZip, "--store", store, "-q")
        #expect(adding.stdoutText.contains("50 added, 0 deleted"), "\(adding.stdoutText)")
        #expect(try consumerView() == before)

        // A consumer's anchor is no number, nor does the store's count show through it.
        let consumerAnchor = try Self.storeAnchor(try healthport("changes", "--store", store, "--policy", policy)).anchor
        #expect(Int(consumerAnchor) == nil && consumerAnchor.hasPrefix("s1"))
    }

    @Test func batchesOverTheStoreEqualOneRunAndAnchorsRoundTripThroughFiles() throws {
        let store = try Self.sampleStore()
        let single = try healthport("changes", "--store", store, "--anchor", "0", "--type", "Workout,BodyMass,BloodPressure")
        let everything = Self.changeLines(single)
        #expect(everything.count > 10)
        let anchorFile = try Fixtures.temporaryDirectory().appendingPathComponent("anchor").path
        var collected: [String] = []
        var rounds = 0
        var seen: Set<String> = []
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
            // Each batch moves the anchor on, until the last, which returns nothing new.
            #expect(seen.insert(anchor).inserted || complete)
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
        let rest = try healthport("changes", "--store", store, "--anchor", try Self.storeAnchor(count).anchor)
        #expect(Self.changeLines(rest).count == manifest.objectCount - 1)
        let all = try healthport("changes", "--store", store, "--anchor", "0")
        #expect(Self.changeLines(all).count == manifest.objectCount)

        // A position in the clear, a made-up token, another store's token, and a file anchor of
        // an export.
        // A number is an anchor of healthport before 0.3.0 (a position): the owner resumes from it,
        // unless it is ahead of the store.
        let number = try healthport("changes", "--store", store, "--anchor", "999999")
        #expect(number.status == 64 && number.stderrText.contains("ahead of this store"), "\(number.stderrText)")
        let resumed = try healthport("changes", "--store", store, "--anchor", "\(manifest.objectCount - 1)")
        #expect(Self.changeLines(resumed).count == 1, "\(resumed.stderrText)")
        // A consumer bound by a policy is told to start over.
        let policy = directory.appendingPathComponent("study.json").path
        #expect(try healthport("auth", "request", "--policy", policy, "--consumer", "study", "--read", "HKQuantityTypeIdentifierStepCount", "--grant").status == 0)
        let consumer = try healthport("changes", "--store", store, "--anchor", "5", "--policy", policy)
        #expect(consumer.status == 64 && consumer.stderrText.contains("start over with 0"), "\(consumer.stderrText)")
        let madeUp = try healthport("changes", "--store", store, "--anchor", "s1AAAAAAAAAAAAAAAAAAAAAA")
        #expect(madeUp.status == 64 && madeUp.stderrText.contains("is not an anchor of this store"), "\(madeUp.stderrText)")
        let otherStore = try Self.sampleStore()
        let otherAnchor = try Self.storeAnchor(try healthport("changes", "--store", otherStore, "--limit", "3")).anchor
        let foreignAnchor = try healthport("changes", "--store", store, "--anchor", otherAnchor)
        #expect(foreignAnchor.status == 64 && foreignAnchor.stderrText.contains("is not an anchor of this store"))
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

        // An empty file, as a store is from its first import's start until its first migration
        // commits: no store yet (status 66), not "not a healthport store" (65), for a reader
        // started beside that import; and the import then makes the store in it.
        let empty = directory.appendingPathComponent("new.sqlite").path
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        for command in [["changes", "--store", empty], ["info", "--store", empty, "-q"], ["query", "--store", empty]] {
            let early = try healthport(command)
            #expect(early.status == 66 && early.stderrText.contains("no store here yet"), "\(command): \(early.stderrText)")
        }
        #expect(try healthport("import", sampleZip, "--store", empty, "-q").status == 0)
        #expect(try healthport("info", "--store", empty, "-q").status == 0)
    }
}

/// Third audit, item 25: a store whose first import named no zone cuts its days at that
/// export's offset (`GMT+0100` for a January export); a later import whose samples name the
/// person's zone moves the store to it, remakes every summary, and says so.
@Suite struct StoreZoneTests {
    static func export(_ records: String, exportDate: String) -> String {
        "<HealthData locale=\"en_US\">\n<ExportDate value=\"\(exportDate)\"/>\n" + records + "</HealthData>\n"
    }

    static func steps(_ start: String, _ end: String, _ value: Int) -> String {
        "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"iPhone\" unit=\"count\" startDate=\"\(start)\" endDate=\"\(end)\" value=\"\(value)\"/>\n"
    }

    @Test func aLaterImportNamingTheZoneRecutsAStoreCutAtAnOffset() throws {
        let folder = try Fixtures.temporaryDirectory()
        let store = folder.appendingPathComponent("health.sqlite").path
        let january = folder.appendingPathComponent("january.xml")
        try Data(Self.export(Self.steps("2024-01-10 08:00:00 +0100", "2024-01-10 08:10:00 +0100", 100), exportDate: "2024-01-20 09:00:00 +0100").utf8)
            .write(to: january)
        #expect(try healthport("import", january.path, "--store", store, "-q").status == 0)
        // July: 00:30 in Paris (+02:00) is 23:30 of the day before at +01:00.
        let summer = Self.steps("2024-01-10 08:00:00 +0200", "2024-01-10 08:10:00 +0200", 100)
            + Self.steps("2024-07-01 00:30:00 +0200", "2024-07-01 00:40:00 +0200", 250)
            + "<Record type=\"HKCategoryTypeIdentifierSleepAnalysis\" sourceName=\"Watch\" value=\"HKCategoryValueSleepAnalysisAsleepCore\" startDate=\"2024-07-01 01:00:00 +0200\" endDate=\"2024-07-01 06:00:00 +0200\"><MetadataEntry key=\"HKTimeZone\" value=\"Europe/Paris\"/></Record>\n"
        let july = folder.appendingPathComponent("july.xml")
        try Data(Self.export(summer, exportDate: "2024-07-20 09:00:00 +0200").utf8).write(to: july)
        let second = try healthport("import", july.path, "--store", store)
        #expect(second.status == 0, "\(second.stderrText)")
        #expect(second.stderrText.contains("now cut in Europe/Paris"), "\(second.stderrText)")
        let rows = parseCSV(try healthport("summary", "--store", store, "--type", "StepCount", "--format", "csv", "-q").stdoutText)
        let days = rows.dropFirst().map { $0[0] }
        #expect(days == ["2024-01-10", "2024-07-01"], "\(rows)")
        // The store's zone is kept: a third import says nothing.
        let third = try healthport("import", july.path, "--store", store)
        #expect(!third.stderrText.contains("now cut in"))
    }
}
