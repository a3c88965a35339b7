import Foundation
import GRDB
import HealthTestSupport
import Testing

/// Stores written by earlier releases of healthport (`Tests/Fixtures/stores`, one per layout,
/// made by `Scripts/make-store-fixtures.sh` with the release's own build: its README names the
/// commits), opened by this one: each is upgraded on first use and then answers as a store this
/// healthport made from the same two exports does — the same objects, the same changes, the same
/// summaries — and the anchors it handed out before keep working for its owner.
///
/// Unlike `StoreUpgradeTests`, nothing here is written by today's code: a migration that came to
/// depend on today's encoders or schema would read these files wrongly, and fail here.
@Suite struct StoreFixtureUpgradeTests {
    static let folder = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/stores")
    static let layouts = ["v1", "v2", "v3", "v4", "v5", "v6"]
    /// This healthport's layout: the one after the last fixture's (a new layout without a
    /// fixture of the one before fails `everyOlderLayoutHasAFixtureWithItsCommit`).
    static let current = "v\(layouts.count + 1)"
    /// The layouts whose summary tables older rules made (before summary rules 2, layout v6).
    static let olderRules: Set<String> = ["v1", "v2", "v3", "v4", "v5"]

    /// What a store answers, as the command line prints it, in an order that does not depend on
    /// the rows' order on disk.
    struct Answers: Equatable {
        /// Every object (`query --store`), each line as printed.
        var objects: [String]
        /// Every change since the beginning: added uuids and deleted uuids.
        var added: Set<String>
        var deleted: Set<String>
        /// The changes of the second import, read from the anchor written after the first.
        var changesAfterFirstImport: [String]
        /// The changes after the anchor written after the second: none.
        var changesAfterSecondImport: [String]
        /// The summary tables, by SQL: days per type, nights, the day table.
        var dailySummary: [String]
        var sleepNights: [String]
        var days: [String]
    }

    static func answers(store: String, anchorA: String, anchorB: String) throws -> Answers {
        func run(_ arguments: String...) throws -> String {
            let result = try healthport(arguments)
            #expect(result.status == 0, "\(arguments.joined(separator: " ")): \(result.stderrText)")
            return result.stdoutText
        }
        func changeLines(_ text: String) -> [String] {
            // The changes alone: not the begin line (the export's date) nor the end line (the new
            // anchor, a token of each store's own key).
            text.split(separator: "\n").map(String.init)
                .filter { $0.hasPrefix("{\"type\":\"added\"") || $0.hasPrefix("{\"type\":\"deleted\"") }.sorted()
        }
        func uuids(_ lines: [String], _ kind: String) throws -> Set<String> {
            var found = Set<String>()
            for line in lines {
                let change = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                guard change["type"] as? String == kind else { continue }
                let uuid = (change["object"] as? [String: Any])?["uuid"] as? String ?? change["uuid"] as? String
                found.insert(try #require(uuid, "\(line.prefix(120))"))
            }
            return found
        }
        func table(_ sql: String) throws -> [String] {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: store, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in
                try Row.fetchAll(db, sql: sql).map { row in row.databaseValues.map { $0.description }.joined(separator: "|") }
            }
        }
        let all = changeLines(try run("changes", "--store", store, "--anchor", "0", "-q"))
        return Answers(
            objects: try run("query", "--store", store, "-q").split(separator: "\n").map(String.init).sorted(),
            added: try uuids(all, "added"),
            deleted: try uuids(all, "deleted"),
            changesAfterFirstImport: changeLines(try run("changes", "--store", store, "--anchor", anchorA, "-q")),
            changesAfterSecondImport: changeLines(try run("changes", "--store", store, "--anchor", anchorB, "-q")),
            dailySummary: try table("SELECT * FROM daily_summary ORDER BY sample_type, date"),
            sleepNights: try table("SELECT * FROM sleep_nights ORDER BY night"),
            days: try table("SELECT * FROM days ORDER BY date"))
    }

    /// The same two imports, by this healthport, into a new store.
    static let fresh: Result<Answers, Error> = Result {
        let directory = try Fixtures.temporaryDirectory()
        let store = directory.appendingPathComponent("health.sqlite").path
        let anchorA = directory.appendingPathComponent("anchor-a").path
        let anchorB = directory.appendingPathComponent("anchor-b").path
        for (export, anchor) in [("export-a.zip", anchorA), ("export-b.zip", anchorB)] {
            let imported = try healthport("import", folder.appendingPathComponent(export).path, "--store", store, "-q", "--force")
            #expect(imported.status == 0, "\(imported.stderrText)")
            #expect(try healthport("changes", "--store", store, "-q", "--anchor-output", anchor).status == 0)
        }
        return try answers(store: store, anchorA: anchorA, anchorB: anchorB)
    }

    @Test(arguments: layouts)
    func anOldStoreAnswersAsAFreshOne(layout: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        let store = directory.appendingPathComponent("health.sqlite").path
        try FileManager.default.copyItem(atPath: Self.folder.appendingPathComponent("\(layout).sqlite").path, toPath: store)
        let anchorA = try String(contentsOf: Self.folder.appendingPathComponent("\(layout).anchor-a"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let anchorB = try String(contentsOf: Self.folder.appendingPathComponent("\(layout).anchor-b"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)

        // The first command upgrades it, whatever the command, and says so, once.
        let info = try healthport("info", "--store", store)
        #expect(info.status == 0, "\(info.stderrText)")
        #expect(info.stdoutText.contains("Store layout:   \(Self.current), summary rules 2"), "\(info.stdoutText.prefix(200))")
        #expect(info.stderrText.contains("\(store): upgraded from store layout \(layout) to \(Self.current)"), "\(info.stderrText)")
        #expect(
            info.stderrText.contains("summary tables made anew by summary rules 2") == Self.olderRules.contains(layout), "\(info.stderrText)")
        let again = try healthport("info", "--store", store)
        #expect(again.status == 0 && !again.stderrText.contains("upgraded"), "\(again.stderrText)")

        let upgraded = try Self.answers(store: store, anchorA: anchorA, anchorB: anchorB)
        let fresh = try Self.fresh.get()
        #expect(upgraded.objects.count == fresh.objects.count, "\(layout)")
        let differing = zip(upgraded.objects, fresh.objects).first { $0 != $1 }
        #expect(differing == nil, "\(layout): first differing object:\n\(differing?.0.prefix(400) ?? "")\n\(differing?.1.prefix(400) ?? "")")
        #expect(upgraded.added == fresh.added, "\(layout)")
        #expect(upgraded.deleted == fresh.deleted && !fresh.deleted.isEmpty, "\(layout)")
        // The anchors it handed out: after the first import, the second import's changes (the
        // second day's objects deleted); after the second, nothing.
        #expect(upgraded.changesAfterFirstImport == fresh.changesAfterFirstImport, "\(layout)")
        #expect(upgraded.changesAfterSecondImport.isEmpty && fresh.changesAfterSecondImport.isEmpty, "\(layout)")
        #expect(upgraded.dailySummary == fresh.dailySummary && !fresh.dailySummary.isEmpty, "\(layout)")
        #expect(upgraded.sleepNights == fresh.sleepNights && !fresh.sleepNights.isEmpty, "\(layout)")
        #expect(upgraded.days == fresh.days && !fresh.days.isEmpty, "\(layout)")
    }

    /// Every layout this healthport upgrades from has its fixture, and the fixtures' README
    /// names the commit that wrote each.
    @Test func everyOlderLayoutHasAFixtureWithItsCommit() throws {
        let readme = try String(contentsOf: Self.folder.appendingPathComponent("README.md"), encoding: .utf8)
        let store = try Fixtures.temporaryDirectory().appendingPathComponent("health.sqlite").path
        #expect(try healthport("import", Self.folder.appendingPathComponent("export-a.zip").path, "--store", store, "-q").status == 0)
        let info = try healthport("info", "--store", store)
        #expect(info.stdoutText.contains("Store layout:   \(Self.current),"), "a layout after \(Self.current) needs a fixture of \(Self.current)")
        for layout in Self.layouts {
            #expect(FileManager.default.fileExists(atPath: Self.folder.appendingPathComponent("\(layout).sqlite").path), "\(layout)")
            let line = readme.split(separator: "\n").first { $0.hasPrefix("| \(layout) ") }
            #expect(line?.contains(/[0-9a-f]{40}/) == true, "\(layout): \(line ?? "no line")")
        }
    }
}
