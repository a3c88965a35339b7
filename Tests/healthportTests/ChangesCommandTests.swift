import Foundation
import Testing
import HealthExport
import HealthModel
import HealthQuery
import HealthTestSupport

/// Generated pairs of exports with known changes.
@Suite struct ChangesCommandTests {
    struct Pair {
        var directory: URL
        var old: String
        var new: String
        /// uuids the tests expect, read from the exports with the library.
        var removed: ObjectUUID
        var modifiedOld: ObjectUUID
        var correlationOld: ObjectUUID
        var workoutOld: ObjectUUID
        var duplicated: ObjectUUID
    }

    final class Collect: ObjectSink {
        var objects: [HealthObject] = []
        func exportDidBegin(_ header: ExportHeader) throws {}
        func consume(_ object: HealthObject) throws { objects.append(object) }
    }

    static func objects(_ path: String) throws -> [HealthObject] {
        let sink = Collect()
        _ = try ExportReader(.path(path)).read(.everything, into: sink)
        return sink.objects
    }

    static func makePair() throws -> Pair {
        let directory = try Fixtures.temporaryDirectory()
        let old = directory.appendingPathComponent("old.xml")
        let new = directory.appendingPathComponent("new.xml")
        var options = ExportGenerator.Options()
        options.days = 8
        #expect(FileManager.default.createFile(atPath: old.path, contents: nil))
        _ = ExportGenerator(options: options).writeDocument(to: try FileHandle(forWritingTo: old))
        options.days = 10
        #expect(FileManager.default.createFile(atPath: new.path, contents: nil))
        let handle = try FileHandle(forWritingTo: new)
        _ = ExportGenerator(options: options).writeDocument(to: handle)
        try handle.close()
        var lines = try String(contentsOf: new, encoding: .utf8).components(separatedBy: "\n")
        let steps = lines.indices.filter { lines[$0].contains("HKQuantityTypeIdentifierStepCount\"") && lines[$0].hasSuffix("/>") && lines[$0].hasPrefix(" <Record") }
        // A value changed (deleted + added) and a record removed.
        lines[steps[5]] = lines[steps[5]].replacingOccurrences(of: "value=\"", with: "value=\"9")
        // An exact duplicate of a manual entry.
        let bodyMass = lines.firstIndex { $0.contains("HKQuantityTypeIdentifierBodyMass\"") }!
        lines.insert(contentsOf: lines[bodyMass...(bodyMass + 2)], at: bodyMass + 3)
        // A correlation whose member changed; a workout whose duration changed.
        let correlation = lines.firstIndex { $0.contains("<Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\"") }!
        lines[correlation + 1] = lines[correlation + 1].replacingOccurrences(of: "value=\"", with: "value=\"1")
        let workout = lines.firstIndex { $0.hasPrefix(" <Workout ") }!
        lines[workout] = lines[workout].replacingOccurrences(of: "duration=\"", with: "duration=\"1")
        let removedLine = steps[2]
        lines.remove(at: removedLine)
        try lines.joined(separator: "\n").write(to: new, atomically: true, encoding: .utf8)

        let oldObjects = try objects(old.path)
        let stepObjects = oldObjects.filter { $0.objectType.identifier == "HKQuantityTypeIdentifierStepCount" }
        let correlationOld = oldObjects.first { $0.objectType.identifier == "HKCorrelationTypeIdentifierBloodPressure" }!.uuid
        let workoutOld = oldObjects.first { $0.objectType.identifier == "HKWorkoutTypeIdentifier" }!.uuid
        let duplicated = oldObjects.first { $0.objectType.identifier == "HKQuantityTypeIdentifierBodyMass" }!.uuid
        return Pair(
            directory: directory, old: old.path, new: new.path, removed: stepObjects[2].uuid, modifiedOld: stepObjects[5].uuid,
            correlationOld: correlationOld, workoutOld: workoutOld, duplicated: duplicated)
    }

    func changes(_ result: CommandRunner.Result) throws -> (added: Set<String>, deleted: Set<String>) {
        var added = Set<String>()
        var deleted = Set<String>()
        for line in try ndjsonObjects(result.stdout) {
            switch line["type"] as? String {
            case "added": added.insert((line["object"] as! [String: Any])["uuid"] as! String)
            case "deleted": deleted.insert(line["uuid"] as! String)
            default: break
            }
        }
        return (added, deleted)
    }

    @Test func diffGivesExactlyTheExpectedAddedAndDeletedSets() throws {
        let pair = try Self.makePair()
        let result = try healthport("diff", pair.old, pair.new, "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        let (added, deleted) = try changes(result)
        let oldSet = Set(try Self.objects(pair.old).map(\.uuid.uuidString))
        let newSet = Set(try Self.objects(pair.new).map(\.uuid.uuidString))
        #expect(added == newSet.subtracting(oldSet))
        #expect(deleted == oldSet.subtracting(newSet))
        // The known changes, one by one.
        // (The correlation's member was edited inside the correlation only: the correlation
        // changes, the top-level record it once referred to does not.)
        #expect(deleted == Set([pair.removed, pair.modifiedOld, pair.correlationOld, pair.workoutOld].map(\.uuidString)))
        #expect(!deleted.contains(pair.duplicated.uuidString) && !added.contains(pair.duplicated.uuidString))
    }

    @Test func theBatchLoopEqualsOneRunAndAnchorsRoundTrip() throws {
        let pair = try Self.makePair()
        let anchor = pair.directory.appendingPathComponent("old.anchor").path
        #expect(try healthport("anchor", pair.old, "--output", anchor, "-q").status == 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: anchor)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect((attributes[.size] as? NSNumber)!.intValue * 10 < (try FileManager.default.attributesOfItem(atPath: pair.old)[.size] as! NSNumber).intValue)
        let single = try changes(try healthport("changes", pair.new, "--anchor", anchor, "-q"))
        #expect(single == (try changes(try healthport("diff", pair.old, pair.new, "-q"))))
        var current = anchor
        var added = [String]()
        var deleted = [String]()
        for round in 0..<100 {
            let next = pair.directory.appendingPathComponent("a\(round).anchor").path
            let batch = try healthport("changes", pair.new, "--anchor", current, "--limit", "97", "--anchor-output", next, "-q")
            #expect(batch.status == 0, "\(batch.stderrText)")
            let (a, d) = try changes(batch)
            added += a
            deleted += d
            current = next
            if a.isEmpty && d.isEmpty { break }
        }
        #expect(added.count == Set(added).count && deleted.count == Set(deleted).count)
        #expect(Set(added) == single.added && Set(deleted) == single.deleted)
        // Caught up: nothing more.
        let after = try changes(try healthport("changes", pair.new, "--anchor", current, "-q"))
        #expect(after.added.isEmpty && after.deleted.isEmpty)
    }

    @Test func withoutAnAnchorEverythingIsAddedAndFiltersCompose() throws {
        let pair = try Self.makePair()
        let all = try changes(try healthport("changes", pair.old, "--type", "StepCount", "-q"))
        let steps = try Self.objects(pair.old).filter { $0.objectType.identifier == "HKQuantityTypeIdentifierStepCount" }
        #expect(all.added.count == steps.count && all.deleted.isEmpty)
        let anchor = pair.directory.appendingPathComponent("steps.anchor").path
        #expect(try healthport("anchor", pair.old, "--type", "StepCount", "-o", anchor, "-q").status == 0)
        let stepChanges = try changes(try healthport("changes", pair.new, "--type", "StepCount", "--anchor", anchor, "-q"))
        #expect(stepChanges.deleted == [pair.removed.uuidString, pair.modifiedOld.uuidString])
        // An anchor made for another query is refused.
        let other = try healthport("changes", pair.new, "--type", "HeartRate", "--anchor", anchor, "-q")
        #expect(other.status == 64)
        #expect(other.stderrText.contains("another query"))
    }

    @Test func foreignDamagedAndMissingAnchorsAreClearErrors() throws {
        let pair = try Self.makePair()
        let directory = pair.directory
        var options = ExportGenerator.Options()
        options.days = 8
        options.seed = 12345
        let stranger = directory.appendingPathComponent("stranger.xml")
        #expect(FileManager.default.createFile(atPath: stranger.path, contents: nil))
        _ = ExportGenerator(options: options).writeDocument(to: try FileHandle(forWritingTo: stranger))
        let anchor = directory.appendingPathComponent("stranger.anchor").path
        #expect(try healthport("anchor", stranger.path, "-o", anchor, "-q").status == 0)
        let output = directory.appendingPathComponent("changes.ndjson").path
        let foreign = try healthport("changes", pair.new, "--anchor", anchor, "--output", output, "-q")
        #expect(foreign.status == 64)
        #expect(foreign.stderrText.contains("does not belong to this export"))
        #expect(!FileManager.default.fileExists(atPath: output))
        // On standard output too, nothing is written before the refusal.
        let onStandardOutput = try healthport("changes", pair.new, "--anchor", anchor, "-q")
        #expect(onStandardOutput.status == 64)
        #expect(!onStandardOutput.stdoutText.contains("\"added\""))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: anchor))
        bytes[bytes.count / 2] ^= 0x55
        try bytes.write(to: URL(fileURLWithPath: anchor))
        let damaged = try healthport("changes", pair.new, "--anchor", anchor, "-q")
        #expect(damaged.status == 64 && damaged.stderrText.contains("damaged"))
        #expect(try healthport("changes", pair.new, "--anchor", directory.appendingPathComponent("none.anchor").path).status == 64)
    }

    /// An anchor from another export is known to be foreign only after the whole export is
    /// read; with more additions before that than the run holds in memory (5,000), standard
    /// output printed them before the refusal (issue 22). It is held until the stream is
    /// complete: a refused anchor prints nothing at all.
    @Test func aForeignAnchorPrintsNothingEvenAfterThousandsOfAdditions() throws {
        let directory = try Fixtures.temporaryDirectory()
        func generate(_ name: String, days: Int, seed: UInt64) throws -> String {
            var options = ExportGenerator.Options()
            options.days = days
            options.seed = seed
            let path = directory.appendingPathComponent(name).path
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            _ = ExportGenerator(options: options).writeDocument(to: try FileHandle(forWritingTo: URL(fileURLWithPath: path)))
            return path
        }
        let stranger = try generate("stranger.xml", days: 8, seed: 12345)
        let big = try generate("big.xml", days: 30, seed: 777)
        let anchor = directory.appendingPathComponent("stranger.anchor").path
        #expect(try healthport("anchor", stranger, "-o", anchor, "-q").status == 0)
        let everything = try healthport("changes", big, "-q")
        #expect(everything.stdoutText.split(separator: "\n").count > 6000)
        for format in ["ndjson", "json"] {
            let foreign = try healthport("changes", big, "--anchor", anchor, "--format", format, "-q")
            #expect(foreign.status == 64 && foreign.stderrText.contains("does not belong to this export"))
            #expect(foreign.stdout.isEmpty, "\(format): \(foreign.stdout.count) bytes printed before the refusal")
        }
        // A good anchor still streams its changes to standard output.
        let own = directory.appendingPathComponent("own.anchor").path
        #expect(try healthport("anchor", stranger, "-o", own, "-q").status == 0)
        let same = try healthport("changes", stranger, "--anchor", own, "-q")
        #expect(same.status == 0 && same.stdoutText.contains("\"type\":\"end\""))
    }

    @Test func exportsInTheWrongOrderAreAWarningNotACrash() throws {
        let pair = try Self.makePair()
        let result = try healthport("diff", pair.new, pair.old)
        #expect(result.status == 0)
        #expect(result.stderrText.contains("older"))
    }

    @Test func jsonAndCSVFormats() throws {
        let pair = try Self.makePair()
        let json = try healthport("diff", pair.old, pair.new, "--format", "json", "-q")
        let document = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect((document["deleted"] as? [Any])?.count == 4)
        #expect((document["newAnchor"] as? [String: Any])?["complete"] as? Bool == true)
        // One name for the new anchor's number, over exports as over the store.
        #expect((document["newAnchor"] as? [String: Any])?["anchor"] as? Int == 0)
        #expect((document["newAnchor"] as? [String: Any])?["position"] == nil)
        let folder = pair.directory.appendingPathComponent("csv")
        #expect(try healthport("diff", pair.old, pair.new, "--format", "csv", "--output", folder.path, "-q").status == 0)
        let deleted = parseCSV(try String(contentsOf: folder.appendingPathComponent("deleted.csv"), encoding: .utf8))
        #expect(deleted.count == 5)
        #expect(try healthport("diff", pair.old, pair.new, "--format", "csv", "-q").status == 64)
    }
}
