import Foundation
import GRDB

/// What `healthport import --watch` remembers about the exports it met, in the store itself, so
/// that each export is imported once even across restarts, and a refused one is not retried.
///
/// Exports are known by the SHA-256 of their bytes, not by name: a renamed or copied export is
/// the same export, and a new export saved under an old name is a new one. The entries live in
/// `store_info` under `watched:<digest>` keys (healthport-store(5)), so the schema does not
/// change.
extension HealthStore {
    /// One export the watcher met.
    public struct WatchedExport: Sendable, Equatable {
        /// Its file name when it was met.
        public var name: String
        /// Whether it was imported (or found unchanged); `false`: refused or damaged.
        public var imported: Bool
        /// Why it was refused.
        public var message: String?

        public init(name: String, imported: Bool, message: String? = nil) {
            self.name = name
            self.imported = imported
            self.message = message
        }
    }

    /// The watcher's entry for an export's digest, if it met it before.
    public func watchedExport(digest: String) throws -> WatchedExport? {
        try Self.wrap(path) {
            try database.read { db in
                guard let text = try String.fetchOne(db, sql: "SELECT value FROM store_info WHERE key = ?", arguments: ["watched:" + digest]),
                    let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
                    let name = object["name"] as? String, let imported = object["imported"] as? Bool
                else { return nil }
                return WatchedExport(name: name, imported: imported, message: object["message"] as? String)
            }
        }
    }

    /// Records what became of an export. A new store (`openForWriting`) is put at its path
    /// first, as an empty store; or, if another process made one there meanwhile, that one is
    /// written.
    public func recordWatchedExport(digest: String, _ entry: WatchedExport) throws {
        var object: [String: Any] = ["name": entry.name, "imported": entry.imported]
        if let message = entry.message { object["message"] = message }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        try Self.wrap(path) {
            try putNewFileInPlace()
            try database.write { db in
                try db.execute(
                    sql: "INSERT OR REPLACE INTO store_info (key, value) VALUES (?, ?)",
                    arguments: ["watched:" + digest, String(decoding: data, as: UTF8.self)])
            }
        }
    }
}
