import Foundation
import HealthQuery

/// A policy file read again when it changes (its size or modification time), for a follower.
struct PolicyFileWatch {
    let path: String?
    private var seen: (size: Int64, modified: Double)? = nil

    init(path: String?) {
        self.path = path
        if let path { seen = Self.stamp(path) }
    }

    /// The policy, when the file changed since last time; `nil` when it did not.
    mutating func reloadIfChanged() throws -> AuthorizationPolicy? {
        guard let path else { return nil }
        let now = Self.stamp(path)
        if let now, let seen, now == seen { return nil }
        seen = now
        return try AuthorizationPolicy.load(from: path)
    }

    static func stamp(_ path: String) -> (size: Int64, modified: Double)? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return (size, modified)
    }
}
