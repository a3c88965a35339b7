import GRDB
import HealthQuery

/// The order the store's sources first appeared in (`summary_sources`: each source's smallest
/// position among its samples the summary counts).
///
/// Where two sources of the same tier cover the same time, the one met first wins
/// (`SourcePriority`), and `healthport summary --store` meets them in the store's order. A
/// recomputation of a few days reads only their samples; seeded with this order, it ranks the
/// sources as a summary of the whole store does.
enum SummarySources {
    /// The sources, first met first.
    static func order(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT source FROM summary_sources ORDER BY first_anchor, source")
    }

    /// Sources of added samples, at their first position among the additions (an existing
    /// source keeps its earlier one).
    static func add(_ db: Database, _ firstAnchors: [String: Int]) throws {
        let statement = try db.makeStatement(sql: """
            INSERT INTO summary_sources (source, first_anchor) VALUES (?, ?)
            ON CONFLICT (source) DO UPDATE SET first_anchor = min(first_anchor, excluded.first_anchor)
            """)
        for (source, anchor) in firstAnchors { try statement.execute(arguments: [source, anchor]) }
    }

    /// After deletions: each source that lost the sample at its first position moves to its
    /// next remaining one, or leaves the table with its last sample.
    ///
    /// - Parameter deleted: per source, the smallest position among its deleted samples.
    /// - Returns: whether the order of the sources that remain changed (then every day where
    ///   two of them meet may rank them differently: the caller rebuilds).
    static func remove(_ db: Database, _ deleted: [String: Int]) throws -> Bool {
        let before = try order(db)
        var moved = false
        // In position order (the table's), per revision of the source: the scan stops at the
        // first row of it, which is early when the source is an old one (no index on sources:
        // it cost an import more than this rare step gains).
        let next = try db.makeStatement(sql: """
            SELECT anchor FROM objects WHERE source_id = ? AND kind IN (\(StoredKind.summarized)) ORDER BY anchor LIMIT 1
            """)
        for (source, anchor) in deleted {
            let first = try Int.fetchOne(db, sql: "SELECT first_anchor FROM summary_sources WHERE source = ?", arguments: [source])
            guard let first, anchor <= first else { continue }
            var remaining: Int? = nil
            for id in try Int64.fetchAll(db, sql: "SELECT id FROM sources WHERE name = ?", arguments: [source]) {
                if let position = try Int.fetchOne(next, arguments: [id]) { remaining = min(remaining ?? position, position) }
            }
            if let remaining {
                try db.execute(sql: "UPDATE summary_sources SET first_anchor = ? WHERE source = ?", arguments: [remaining, source])
            } else {
                try db.execute(sql: "DELETE FROM summary_sources WHERE source = ?", arguments: [source])
            }
            moved = true
        }
        guard moved else { return false }
        let after = try order(db)
        let remaining = Set(after)
        return before.filter(remaining.contains) != after
    }

    /// The table again from every row of the store.
    static func rebuild(_ db: Database) throws {
        try db.execute(sql: """
            DELETE FROM summary_sources;
            INSERT INTO summary_sources (source, first_anchor)
            SELECT s.name, min(o.anchor) FROM objects AS o JOIN sources AS s ON s.id = o.source_id
            WHERE o.kind IN (\(StoredKind.summarized)) GROUP BY s.name;
            """)
    }
}
