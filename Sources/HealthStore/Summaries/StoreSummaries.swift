import Foundation
import GRDB
import HealthModel
import HealthQuery

/// The store's daily summary and sleep nights (`daily_summary`, `sleep_nights`): the rows
/// `healthport summary` and `healthport sleep` compute, kept beside the objects and changed in
/// the import's transaction, so SQL over the store gives the Health app's numbers (an iPhone's
/// and a Watch's steps counted once) and a reader never sees objects and summaries disagree.
///
/// Computed by `SummaryCollector`, the code behind every summary, in three ways:
/// - `build`: the first import into an empty store feeds the collector the objects as they are
///   read, and writes every row at the end (no second read);
/// - `update`: a later import recomputes, from the store's rows, only the days and nights its
///   additions and deletions touch (`SummaryChanges`), reading them through the import's own
///   connection, which alone sees its uncommitted rows;
/// - `rebuild`: everything from the store's rows (the migration that adds the tables, and the
///   rare import after which the sources' order changed).
///
/// Days are cut in one zone, decided at the first summary as every summary decides it
/// (`SummaryTimeZone`) and kept in `store_info` (`summary_time_zone`), so that later imports
/// cut them where the first did; nights turn at 18:00; sources rank by the default priority.
enum StoreSummaries {
    static let timeZoneKey = "summary_time_zone"
    static let evening = SummaryCollector.defaultEvening
    private static let kinds = SummaryCollector.summarizedKinds.map { "'\($0)'" }.joined(separator: ", ")

    /// The zone the store's days are cut in; `nil` until its first summary.
    ///
    /// - Throws: `StoreError.incompatible` for a zone this system does not know.
    static func timeZone(_ db: Database, path: String) throws -> TimeZone? {
        guard let name = try String.fetchOne(db, sql: "SELECT value FROM store_info WHERE key = ?", arguments: [timeZoneKey]) else {
            return nil
        }
        guard let zone = TimeZone(identifier: name) else {
            throw StoreError(.incompatible, "\(path): the store's summaries are cut in the time zone '\(name)', which this system does not know")
        }
        return zone
    }

    private static func save(_ zone: TimeZone, _ db: Database) throws {
        try db.execute(
            sql: "INSERT INTO store_info (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            arguments: [timeZoneKey, zone.identifier])
    }

    /// The first summary of a store that held nothing: every row from a collector fed the
    /// import's objects. Writes nothing (and decides no zone) when no sample counted.
    ///
    /// - Parameters:
    ///   - exportOffset: the export's UTC offset, for a zone when no sample names one.
    ///   - firstAnchors: each source's first position (`summary_sources`).
    static func build(_ db: Database, path: String, collector: SummaryCollector, exportOffset: Int32?, firstAnchors: [String: Int]) throws {
        guard collector.recordCount > 0 else { return }
        let zone = SummaryTimeZone.decide(collector, exportOffset: exportOffset).timeZone
        try save(zone, db)
        try SummarySources.add(db, firstAnchors)
        let rows = try SummaryRows(db: db)
        try rows.removeAll()
        try finish(collector, zone: zone, path: path, daily: rows.write, night: rows.write)
    }

    /// Every row again from the store's objects, read in the order they reached the store (as
    /// `healthport summary --store` reads them). Decides the zone if none was (from the samples,
    /// else the latest export's offset); leaves it undecided while the store has no sample.
    static func rebuild(_ db: Database, path: String) throws {
        let collector = SummaryCollector()
        let decoder = StoredObjectDecoder(db: db, path: path)
        let cursor = try Row.fetchCursor(
            db, sql: "SELECT \(StoredObjectDecoder.columns) FROM objects WHERE kind IN (\(kinds)) ORDER BY anchor")
        while let row = try cursor.next() { try add(try decoder.decode(row), to: collector, path: path) }
        let rows = try SummaryRows(db: db)
        try rows.removeAll()
        try SummarySources.rebuild(db)
        var zone = try timeZone(db, path: path)
        if zone == nil {
            guard collector.recordCount > 0 else { return }
            let decided = SummaryTimeZone.decide(collector, exportOffset: try HealthStore.latestHeader(db).exportDate?.utcOffsetSeconds).timeZone
            try save(decided, db)
            zone = decided
        }
        try finish(collector, zone: zone!, path: path, daily: rows.write, night: rows.write)
    }

    /// Recomputes the days and nights an import touched, from the store's rows as the import
    /// left them (its additions and deletions made, `type_extents` updated).
    ///
    /// For each touched type, the rows of the days to recompute are removed and the samples
    /// that can reach them are read (by the `(type, start_date)` index: starts from a day
    /// before the first, less the type's longest duration, to two days after the last, a
    /// superset in any zone); the collector computes their days, and only the recomputed days
    /// are written back (days at the edge of what was read are incomplete and left as they
    /// were). Sleep's nights alike, a night being the samples that start in it.
    ///
    /// - Parameters:
    ///   - changes: the added and deleted samples' days, and the added sources.
    ///   - deletedSources: per source, the first position among its deleted samples.
    static func update(_ db: Database, path: String, zone: TimeZone, changes: SummaryChanges, deletedSources: [String: Int]) throws {
        try SummarySources.add(db, changes.firstAnchors)
        if try SummarySources.remove(db, deletedSources) {
            try rebuild(db, path: path)
            return
        }
        let dayRanges = changes.dayRanges()
        guard !dayRanges.isEmpty else { return }
        let collector = SummaryCollector(priority: SourcePriority(knownOrder: try SummarySources.order(db)))
        let rows = try SummaryRows(db: db)
        let decoder = StoredObjectDecoder(db: db, path: path)
        let read = try db.makeStatement(sql: """
            SELECT \(StoredObjectDecoder.columns) FROM objects WHERE type = ? AND start_date BETWEEN ? AND ? ORDER BY anchor
            """)
        var nightRanges: [ClosedRange<Int>] = []
        for (type, days) in dayRanges.sorted(by: { $0.key < $1.key }) {
            let longest = try Int.fetchOne(db, sql: "SELECT max_duration FROM type_extents WHERE type = ?", arguments: [type]) ?? 0
            var spans = days.map { (($0.lowerBound - 1) * 86_400 - longest)...(($0.upperBound + 2) * 86_400) }
            if type == SummaryCollector.sleepType {
                // A sample's night is the one its start falls in: a day before or after its
                // local day's (the evening boundary), so one more day on either side.
                nightRanges = SummaryChanges.merged(days.map { ($0.lowerBound - 1)...($0.upperBound + 1) })
                spans += nightRanges.map { (($0.lowerBound - 2) * 86_400)...(($0.upperBound + 2) * 86_400) }
            }
            for span in SummaryChanges.merged(spans) {
                let cursor = try Row.fetchCursor(read, arguments: [type, span.lowerBound, span.upperBound])
                while let row = try cursor.next() { try add(try decoder.decode(row), to: collector, path: path) }
            }
            for range in days { try rows.removeDays(type: type, range) }
        }
        for range in nightRanges { try rows.removeNights(range) }
        try finish(
            collector, zone: zone, path: path,
            daily: { day in
                let number = CalendarDate.daysFromCivil(year: day.date.year, month: day.date.month, day: day.date.day)
                if dayRanges[day.type]?.contains(where: { $0.contains(number) }) == true { try rows.write(day) }
            },
            night: { night in
                let number = CalendarDate.daysFromCivil(year: night.night.year, month: night.night.month, day: night.night.day)
                if nightRanges.contains(where: { $0.contains(number) }) { try rows.write(night) }
            })
    }

    /// The collector's errors are its temporary files' (`QueryError`): the store reports them
    /// as its own.
    private static func add(_ object: HealthObject, to collector: SummaryCollector, path: String) throws {
        do {
            try collector.add(object)
        } catch let error as QueryError {
            throw StoreError(.database, "\(path): cannot summarize the store: \(error.message)")
        }
    }

    private static func finish(
        _ collector: SummaryCollector, zone: TimeZone, path: String, daily: (DailySummary) throws -> Void, night: (SleepNight) throws -> Void
    ) throws {
        do {
            try collector.finish(timeZone: zone, evening: evening, daily: daily, night: night)
        } catch let error as QueryError {
            throw StoreError(.database, "\(path): cannot summarize the store: \(error.message)")
        }
    }
}
