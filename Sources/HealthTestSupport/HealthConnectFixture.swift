import Foundation

/// The Health Connect fixture, made fresh for each test that asks by the repository's own
/// script (`Scripts/healthconnect/make-fixture.py`, Python's standard library only), so no
/// database is ever copied into the repository: what the tests read is what the script, which
/// follows AOSP's layout (`docs/health-connect.md`), writes.
public enum HealthConnectFixture {
    public static var script: URL { Fixtures.packageRoot.appendingPathComponent("Scripts/healthconnect/make-fixture.py") }

    /// Runs the script into a new temporary folder.
    ///
    /// - Parameter schema: `current` (database version 10), `v9` (before the generated
    ///   local-time columns) or `v16` (version 16: `current`'s rows and the record tables of
    ///   versions 11 to 16, skin temperature, planned exercise, mindfulness and activity
    ///   intensity, with rows of their own).
    /// - Returns: the paths of `health_connect_export.db` and `health_connect_export.zip`.
    public static func make(schema: String = "current") throws -> (database: String, zip: String) {
        let folder = try Fixtures.temporaryDirectory()
        let result = try CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, folder.path, "--schema", schema])
        guard result.status == 0 else {
            throw FixtureError(message: "make-fixture.py failed (\(result.status)): \(String(decoding: result.stderr, as: UTF8.self))")
        }
        return (folder.appendingPathComponent("health_connect_export.db").path, folder.appendingPathComponent("health_connect_export.zip").path)
    }

    /// Runs Python's `sqlite3` on a copy of a database (to damage it for a test) and returns the copy.
    public static func altered(_ database: String, sql: String) throws -> String {
        let copy = try Fixtures.temporaryDirectory().appendingPathComponent("altered.db").path
        try FileManager.default.copyItem(atPath: database, toPath: copy)
        let program = "import sqlite3, sys\ndb = sqlite3.connect(sys.argv[1])\ndb.executescript(sys.argv[2])\ndb.commit()\n"
        let result = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", program, copy, sql])
        guard result.status == 0 else {
            throw FixtureError(message: "sqlite3 failed: \(String(decoding: result.stderr, as: UTF8.self))")
        }
        return copy
    }

    public struct FixtureError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }
}
