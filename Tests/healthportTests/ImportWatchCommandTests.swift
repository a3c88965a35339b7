import Foundation
import Testing
import HealthTestSupport

/// `import --watch`, with a real watcher process and files arriving the way downloads and sync
/// clients write them.
@Suite(.serialized) struct ImportWatchCommandTests {
    typealias Background = FollowCommandTests.Background

    static func wait(seconds: Double = 60, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    static func errors(_ watcher: Background) -> [String] {
        ((try? String(contentsOf: watcher.stderr, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init).filter { $0.contains("error:") }
    }

    @Test func exportsWaitingAreImportedOldestFirstAndEachOnlyOnce() throws {
        let directory = try Fixtures.temporaryDirectory()
        let folder = directory.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Named so that the newer export comes first in the folder's order.
        try FileManager.default.copyItem(atPath: sampleZip, toPath: folder.appendingPathComponent("a-newer.zip").path)
        try FileManager.default.copyItem(
            atPath: Fixtures.sampleData.appendingPathComponent("export-older.zip").path, toPath: folder.appendingPathComponent("b-older.zip").path)
        let store = directory.appendingPathComponent("health.sqlite").path
        let watcher = try Background(["import", "--watch", folder.path, "--store", store, "--settle", "0.3", "-q"], in: directory)
        #expect(Self.wait { watcher.lines.count >= 2 })
        #expect(watcher.lines.map { $0.components(separatedBy: ":")[0] } == ["b-older.zip", "a-newer.zip"])
        // The same export under another name, and a restart: nothing is imported again.
        try FileManager.default.copyItem(atPath: sampleZip, toPath: folder.appendingPathComponent("copy.zip").path)
        Thread.sleep(forTimeInterval: 1.5)
        #expect(watcher.stop() == 128 + SIGTERM)
        #expect(watcher.lines.count == 2)
        let again = try Background(["import", "--watch", folder.path, "--store", store, "--settle", "0.3", "-q"], in: directory)
        Thread.sleep(forTimeInterval: 1.5)
        _ = again.stop()
        #expect(again.lines.isEmpty)
        #expect(Self.errors(again).isEmpty)
        // The store holds what importing both by hand gives.
        let direct = directory.appendingPathComponent("direct.sqlite").path
        _ = try healthport("import", Fixtures.sampleData.appendingPathComponent("export-older.zip").path, "--store", direct, "-q")
        _ = try healthport("import", sampleZip, "--store", direct, "-q")
        #expect(try healthport("query", "--store", store, "-q").stdout == (try healthport("query", "--store", direct, "-q")).stdout)
    }

    /// A zip written slowly, in chunks with pauses shorter than the settle time, is imported
    /// once, after it is complete; one cut off is reported once and not tried again.
    @Test func slowArrivalsWaitAndCutOffOnesAreReportedOnce() throws {
        let directory = try Fixtures.temporaryDirectory()
        let folder = directory.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = directory.appendingPathComponent("health.sqlite").path
        let watcher = try Background(["import", "--watch", folder.path, "--store", store, "--settle", "3", "-q"], in: directory)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: sampleZip))
        let target = folder.appendingPathComponent("export.zip")
        #expect(FileManager.default.createFile(atPath: target.path, contents: nil))
        let handle = try FileHandle(forWritingTo: target)
        let chunk = bytes.count / 6 + 1
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            try handle.write(contentsOf: bytes[start..<min(start + chunk, bytes.count)])
            try handle.synchronize()
            Thread.sleep(forTimeInterval: 0.4)
            #expect(watcher.lines.isEmpty, "imported before it was complete")
        }
        try handle.close()
        #expect(Self.wait { watcher.lines.count >= 1 })
        let count = try sampleManifest().objectCount
        #expect(watcher.lines.first?.hasPrefix("export.zip: \(count) objects, \(count) added") == true, "\(watcher.lines)")
        // A transfer cut off: it stops growing without ever becoming a whole zip.
        try bytes.prefix(bytes.count / 2).write(to: folder.appendingPathComponent("cut.zip"))
        #expect(Self.wait { !Self.errors(watcher).isEmpty })
        Thread.sleep(forTimeInterval: 2)
        #expect(watcher.stop() == 128 + SIGTERM)
        #expect(Self.errors(watcher).count == 1)
        #expect(Self.errors(watcher).first?.contains("cut.zip") == true)
        #expect(watcher.lines.count == 1)
        // Restarted, the watcher does not try the cut-off export again, unless --force.
        let again = try Background(["import", "--watch", folder.path, "--store", store, "--settle", "0.3", "-q"], in: directory)
        Thread.sleep(forTimeInterval: 1.5)
        _ = again.stop()
        #expect(Self.errors(again).isEmpty && again.lines.isEmpty)
        let forced = try Background(["import", "--watch", folder.path, "--store", store, "--settle", "0.3", "--force", "-q"], in: directory)
        #expect(Self.wait { Self.errors(forced).count == 1 })
        _ = forced.stop()
    }

    @Test func aWatchedFolderThatGoesAwayEndsTheWatcher() throws {
        let directory = try Fixtures.temporaryDirectory()
        let folder = directory.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let watcher = try Background(
            ["import", "--watch", folder.path, "--store", directory.appendingPathComponent("s.sqlite").path, "--settle", "0.3", "-q"], in: directory)
        Thread.sleep(forTimeInterval: 0.5)
        try FileManager.default.removeItem(at: folder)
        watcher.process.waitUntilExit()
        #expect(watcher.process.terminationStatus == 66)
        #expect(Self.errors(watcher).first?.contains("the watched folder is gone") == true)
        // A store of the test's own: the default one in $HOME may be any version, or absent.
        let store = directory.appendingPathComponent("t.sqlite").path
        #expect(try healthport("import", "--watch", folder.path, "--store", store, "-q").status == 66)
        #expect(try healthport("import", sampleZip, "--watch", directory.path, "--store", store, "-q").status == 64)
    }

    /// Entries named as exports that cannot be imported killed the watcher (an empty folder:
    /// "internal error … Is a directory", status 70), blocked it in open() (a FIFO named
    /// export.zip) or spun it (a link to /dev/zero), and a name that is not UTF-8 was dropped
    /// without a word. Each is now said once, as a warning naming it, and the rest imported.
    @Test func entriesThatCannotBeImportedAreSkippedOnceAndTheRestImported() throws {
        let directory = try Fixtures.temporaryDirectory()
        let folder = directory.appendingPathComponent("exports")
        let manager = FileManager.default
        for name in ["empty", "__MACOSX", "old exports"] {
            try manager.createDirectory(at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        try manager.copyItem(
            atPath: Fixtures.sampleData.appendingPathComponent("export-older.zip").path,
            toPath: folder.appendingPathComponent("old exports/export-older.zip").path)
        #expect(mkfifo(folder.appendingPathComponent("export.zip").path, 0o600) == 0)
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("export.xml").path, withDestinationPath: "/dev/zero")
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("gone.zip").path, withDestinationPath: "nowhere.zip")
        let copy = try CommandRunner.run(
            URL(fileURLWithPath: "/bin/bash"), ["-c", "cp '\(sampleZip)' \"$(printf '\(folder.path)/caf\\351.zip')\""])
        #expect(copy.status == 0, "\(copy.stderrText)")
        try manager.copyItem(atPath: sampleZip, toPath: folder.appendingPathComponent("good.zip").path)

        let store = directory.appendingPathComponent("health.sqlite").path
        let watcher = try Background(["import", "--watch", folder.path, "--store", store, "--settle", "0.3"], in: directory)
        #expect(Self.wait { watcher.lines.count >= 1 })
        // Several more looks at the folder: nothing is said twice.
        Thread.sleep(forTimeInterval: 2)
        // A folder left alone is looked at again when it changes: an export unzipped into it.
        let unzip = try CommandRunner.run(
            URL(fileURLWithPath: "/bin/bash"),
            ["-c", "cd '\(directory.path)' && unzip -q '\(sampleZip)' -d staging && mv staging/apple_health_export exports/empty/"])
        #expect(unzip.status == 0, "\(unzip.stderrText)")
        #expect(Self.wait { watcher.lines.count >= 2 })
        #expect(watcher.stop() == 128 + SIGTERM)
        let count = try sampleManifest().objectCount
        #expect(watcher.lines == ["good.zip: \(count) objects, \(count) added, 0 deleted", "empty: \(count) objects, nothing new"])
        let stderr = (try? String(contentsOf: watcher.stderr, encoding: .utf8)) ?? ""
        let skipped = stderr.split(separator: "\n").filter { $0.hasSuffix("skipped") || $0.contains("; skipped (") }.sorted()
        #expect(
            skipped == [
                "healthport: caf\\xE9.zip: warning: its name is not valid UTF-8; skipped (rename it to import it)",
                "healthport: empty: warning: a folder that holds no unzipped Apple Health export; skipped (zips in subfolders are not watched)",
                "healthport: export.xml: warning: not a regular file (a character device); skipped",
                "healthport: export.zip: warning: not a regular file (a FIFO); skipped",
                "healthport: gone.zip: warning: a symbolic link to nothing; skipped",
                "healthport: old exports: warning: a folder that holds no unzipped Apple Health export; skipped (zips in subfolders are not watched)",
            ], "\(stderr)")
        #expect(Self.errors(watcher).isEmpty, "\(stderr)")
        #expect(!stderr.contains("__MACOSX"))
    }
}
