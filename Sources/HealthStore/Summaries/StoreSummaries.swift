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
///   read (no second read); the reading thread computes every row once the export is read,
///   while the database's thread inserts the last objects, and the rows are written at the end;
/// - `update`: a later import recomputes only the days and nights its additions and deletions
///   touch (`SummaryChanges`): its new samples go to the collector as they are read, as in a
///   build, and the store's older samples of those days are read through the import's own
///   connection (which alone sees the import's uncommitted deletions). Reading the new samples
///   back from the store instead decoded each one's JSON again: an import of two months into a
///   store of ten took a third longer, not a tenth (`Benchmarks/store.sh`);
/// - `rebuild`: everything from the store's rows (the migration that adds the tables, and the
///   rare import after which the sources' order changed).
///
/// Days are cut in one zone, decided at the first summary as every summary decides it
/// (`SummaryTimeZone`) and kept in `store_info` (`summary_time_zone`), so that later imports
/// cut them where the first did; nights turn at 18:00; sources rank by the default priority,
/// and a Health Connect export's samples by the store's Health Connect priority list
/// (`healthConnectPriority`), as Health Connect ranks them.
enum StoreSummaries {
    static let timeZoneKey = "summary_time_zone"
    static let evening = SummaryCollector.defaultEvening

    /// The version of the rules the summary tables are made by (`SummaryRules`), recorded in
    /// `store_info.summary_rules`. A store whose tables were made by other rules has them remade,
    /// whole, in one transaction, the first time a healthport with these rules opens it
    /// (`rebuildIfRulesChanged`): no table ever holds days made by two sets of rules.
    static let rulesVersion = SummaryRules.version
    static let rulesKey = "summary_rules"

    /// The rules the store's tables were made by (0: none recorded, before version 2).
    static func rules(_ db: Database) throws -> Int {
        guard try StoreSchema.hasTable(db, "store_info") else { return 0 }
        return try Int.fetchOne(db, sql: "SELECT CAST(value AS INTEGER) FROM store_info WHERE key = ?", arguments: [rulesKey]) ?? 0
    }

    private static func saveRules(_ db: Database) throws {
        try db.execute(
            sql: "INSERT INTO store_info (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            arguments: [rulesKey, rulesVersion])
    }

    /// Remakes every summary table when they were made by other rules than this healthport's;
    /// `true` when it did. A store with no summary yet (no zone decided) only records the rules.
    /// Called in a write transaction.
    @discardableResult
    static func rebuildIfRulesChanged(_ db: Database, path: String) throws -> Bool {
        guard try rules(db) != rulesVersion else { return false }
        if try timeZone(db, path: path) == nil && (try Int.fetchOne(db, sql: "SELECT count(*) FROM objects") ?? 0) == 0 {
            try saveRules(db)
            return false
        }
        try rebuild(db, path: path)
        try saveRules(db)
        return true
    }

    /// The Health Connect priority list the store's totals follow: the one of the latest import
    /// that had one (an Apple export's import, which has none, leaves it as it was), as Health
    /// Connect totals every record it holds by the person's current list. `nil` when no Health
    /// Connect export was imported.
    ///
    /// Read from the imports' headers (`imports.header`), where each import's list is kept, so
    /// the store holds it once; the text filter only skips the headers that cannot have one.
    static func healthConnectPriority(_ db: Database, path: String) throws -> HealthConnectPriority? {
        try HealthStore.latestHeader(having: "healthConnectPriority", db, path: path) { $0.healthConnectPriority != nil }?.healthConnectPriority
    }

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

    /// The rows of a store's first summary, and the zone they are cut in.
    struct Built {
        var timeZone: TimeZone
        var days: [DailySummary] = []
        var nights: [SleepNight] = []
        var workouts: [WorkoutSummary] = []
    }

    /// Every row of the first summary of a store that held nothing, from a collector fed the
    /// import's objects, without the database: the reading thread computes them once the
    /// export is read (`Importer`), while the database's thread inserts the last objects. A
    /// year's rows are a few thousand (a few hundred KB). `nil` when no sample counted: no zone
    /// is decided then.
    ///
    /// - Parameter exportOffset: the export's UTC offset, for a zone when no sample names one.
    static func compute(_ collector: SummaryCollector, exportOffset: Int32?, path: String) throws -> Built? {
        guard collector.recordCount > 0 else { return nil }
        var built = Built(timeZone: SummaryTimeZone.decide(collector, exportOffset: exportOffset).timeZone)
        try finish(
            collector, zone: built.timeZone, path: path, daily: { built.days.append($0) }, night: { built.nights.append($0) },
            workout: { built.workouts.append($0) })
        return built
    }

    /// Writes the first summary (`compute`), its zone and the sources' first positions
    /// (`summary_sources`).
    static func build(_ db: Database, _ built: Built?, firstAnchors: [String: Int]) throws {
        guard let built else { return }
        try save(built.timeZone, db)
        try SummarySources.add(db, firstAnchors)
        let rows = try SummaryRows(db: db)
        try rows.removeAll()
        for day in built.days { try rows.write(day) }
        for night in built.nights { try rows.write(night) }
        for workout in built.workouts { try rows.write(workout) }
        try StoreDays.rewrite(db, range: nil)
        try saveRules(db)
    }

    /// Every row again from the store's objects, read in the order they reached the store (as
    /// `healthport summary --store` reads them). Decides the zone if none was (from the samples,
    /// else the latest export's offset); leaves it undecided while the store has no sample.
    static func rebuild(_ db: Database, path: String) throws {
        let collector = SummaryCollector(priority: SourcePriority(healthConnect: try healthConnectPriority(db, path: path)))
        let decoder = StoredObjectDecoder(db: db, path: path)
        let cursor = try Row.fetchCursor(
            db, sql: "SELECT \(StoredObjectDecoder.columns) FROM objects WHERE kind IN (\(StoredKind.summarized)) ORDER BY anchor")
        while let row = try cursor.next() {
            if let object = try readable(row, decoder) { try add(object, to: collector, path: path) }
        }
        let rows = try SummaryRows(db: db)
        try rows.removeAll()
        try SummarySources.rebuild(db)
        var zone = try timeZone(db, path: path)
        if zone == nil {
            guard collector.recordCount > 0 else { return }
            let decided: TimeZone
            if let fromSamples = collector.mostFrequentTimeZone {
                decided = fromSamples
            } else {
                // A damaged header names no offset: the zone is left for the next import to
                // decide, with its export's.
                guard let header = try? HealthStore.latestHeader(db, path: path) else { return }
                decided = SummaryTimeZone.decide(collector, exportOffset: header.exportDate?.utcOffsetSeconds).timeZone
            }
            try save(decided, db)
            zone = decided
        }
        try finish(collector, zone: zone!, path: path, daily: rows.write, night: rows.write, workout: rows.write)
        try StoreDays.rewrite(db, range: nil)
        try saveRules(db)
    }

    /// A collector for an import into a store whose summary exists: sources ranked in the
    /// store's order (`SummarySources`), the import's new ones after them as they come, and
    /// by the store's Health Connect priority list (an import that brings another list remakes
    /// every table instead: `Importer.finish`).
    ///
    /// - Parameter priority: the store's list (`healthConnectPriority`), which the import read
    ///   already.
    static func updatingCollector(_ db: Database, priority: HealthConnectPriority?) throws -> SummaryCollector {
        SummaryCollector(priority: SourcePriority(knownOrder: try SummarySources.order(db), healthConnect: priority))
    }

    /// Recomputes the days and nights an import touched, with the store as the import left it
    /// (its additions and deletions made, `type_extents` updated).
    ///
    /// For each touched type, the rows of the days to recompute are removed and the store's
    /// older samples that can reach them are read (by the `(type, start_date)` index: starts
    /// from a day before the first, less the type's longest duration, to two days after the
    /// last, a superset in any zone) into the collector, which holds the import's new samples
    /// already; it computes their days, and only the recomputed days are written back (days at
    /// the edge of what was read are incomplete and left as they were). Sleep's nights alike,
    /// a night being the samples that start in it.
    ///
    /// - Parameters:
    ///   - collector: made by `updatingCollector`, fed the import's new samples.
    ///   - previousAnchor: the store's position before the import: rows up to it are older.
    ///   - changes: the added and deleted samples' days, and the added sources.
    ///   - deletedSources: per source, the first position among its deleted samples.
    /// - Returns: the zone the summaries are now cut in, when this import changed it (`reZone`).
    @discardableResult
    static func update(
        _ db: Database, path: String, zone: TimeZone, collector: SummaryCollector, previousAnchor: Int, changes: SummaryChanges,
        deletedSources: [String: Int]
    ) throws -> TimeZone? {
        try SummarySources.add(db, changes.firstAnchors)
        if let named = reZone(from: zone, collector: collector) {
            try save(named, db)
            try rebuild(db, path: path)
            return named
        }
        if try SummarySources.remove(db, deletedSources) {
            try rebuild(db, path: path)
            return nil
        }
        var dayRanges = changes.dayRanges()
        guard !dayRanges.isEmpty else { return nil }
        // A workout's heart rate is its samples': a change to either remakes both the days'
        // rows and the workouts of those days (`workout_summary`).
        let workoutType = ObjectType.workout.identifier, heartRate = SummaryCollector.heartRateType
        let workoutDays = SummaryChanges.merged((dayRanges[workoutType] ?? []) + (dayRanges[heartRate] ?? []))
        if !workoutDays.isEmpty {
            dayRanges[workoutType] = workoutDays
            if dayRanges[heartRate] != nil { dayRanges[heartRate] = workoutDays }
        }
        let rows = try SummaryRows(db: db)
        let decoder = StoredObjectDecoder(db: db, path: path)
        let read = try db.makeStatement(sql: """
            SELECT \(StoredObjectDecoder.columns) FROM objects
            WHERE type_id = (SELECT id FROM sample_types WHERE identifier = ?) AND start_date BETWEEN ? AND ? AND anchor <= ?
            ORDER BY anchor
            """)
        var nightRanges: [ClosedRange<Int>] = []
        for (type, days) in dayRanges.sorted(by: { $0.key < $1.key }) {
            // Bounded as `SummaryChanges.day(of:)` bounds instants.
            let longest = min(
                max(try Int.fetchOne(db, sql: "SELECT CAST(max_duration AS INTEGER) FROM type_extents WHERE type = ?", arguments: [type]) ?? 0, 0),
                1 << 40)
            var spans = days.map { (($0.lowerBound - 1) * 86_400 - longest)...(($0.upperBound + 2) * 86_400) }
            if type == SummaryCollector.sleepType {
                // A sample's night is the one its start falls in: a day before or after its
                // local day's (the evening boundary), so one more day on either side.
                nightRanges = SummaryChanges.merged(days.map { ($0.lowerBound - 1)...($0.upperBound + 1) })
                spans += nightRanges.map { (($0.lowerBound - 2) * 86_400)...(($0.upperBound + 2) * 86_400) }
            }
            for span in SummaryChanges.merged(spans) {
                let cursor = try Row.fetchCursor(read, arguments: [type, span.lowerBound, span.upperBound, previousAnchor])
                while let row = try cursor.next() {
                    if let object = try readable(row, decoder) { try add(object, to: collector, path: path) }
                }
            }
            // Sleep's days are its nights (`CategoryDayMeasure.night`), dated by their mornings.
            for range in type == SummaryCollector.sleepType ? nightRanges : days { try rows.removeDays(type: type, range) }
        }
        for range in nightRanges { try rows.removeNights(range) }
        for range in workoutDays { try rows.removeWorkouts(range) }
        try finish(
            collector, zone: zone, path: path,
            daily: { day in
                let number = CalendarDate.daysFromCivil(year: day.date.year, month: day.date.month, day: day.date.day)
                let ranges = day.type == SummaryCollector.sleepType ? nightRanges : dayRanges[day.type] ?? []
                if ranges.contains(where: { $0.contains(number) }) { try rows.write(day) }
            },
            night: { night in
                let number = CalendarDate.daysFromCivil(year: night.night.year, month: night.night.month, day: night.night.day)
                if nightRanges.contains(where: { $0.contains(number) }) { try rows.write(night) }
            },
            workout: { workout in
                if workoutDays.contains(where: { $0.contains(workout.date.dayNumber) }) { try rows.write(workout) }
            })
        // The days table, over every day a recomputed row can be on.
        let touched = dayRanges.values.flatMap { $0 } + nightRanges
        if let first = touched.map(\.lowerBound).min(), let last = touched.map(\.upperBound).max() {
            try StoreDays.rewrite(db, range: first...last)
        }
        return nil
    }

    /// The zone a store's summaries move to when `zone` was only an offset (the first import's
    /// samples named none, so its export's offset was taken: `GMT+0100` in a January export)
    /// and this import's samples name a real zone: a fixed offset cut half the year's days at
    /// 23:00 once the clocks changed. `nil` when the zone stays. A named zone is never changed
    /// by a later import (a person who moved keeps the days they had).
    static func reZone(from zone: TimeZone, collector: SummaryCollector) -> TimeZone? {
        guard isFixedOffset(zone), let named = collector.mostFrequentTimeZone, !isFixedOffset(named) else { return nil }
        return named
    }

    /// Whether a zone is a bare offset (`GMT+0100`, `GMT`), not a place with its clock changes.
    static func isFixedOffset(_ zone: TimeZone) -> Bool {
        zone.identifier.hasPrefix("GMT") || zone.identifier == "UTC"
    }

    /// A row's object, or `nil` for a row that cannot be decoded (a damaged body or device):
    /// left out of the summary, where readers refuse it. Refusing the import instead would keep
    /// the store from the import that turns the damaged object into a tombstone (and
    /// recomputes its days then, from its dates).
    private static func readable(_ row: Row, _ decoder: StoredObjectDecoder) throws -> HealthObject? {
        do {
            return try decoder.decode(row)
        } catch let error as StoreError where error.code == .incompatible {
            return nil
        }
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
        _ collector: SummaryCollector, zone: TimeZone, path: String, daily: (DailySummary) throws -> Void, night: (SleepNight) throws -> Void,
        workout: (WorkoutSummary) throws -> Void
    ) throws {
        do {
            try collector.finish(timeZone: zone, evening: evening, daily: daily, night: night, workout: workout)
        } catch let error as QueryError {
            throw StoreError(.database, "\(path): cannot summarize the store: \(error.message)")
        }
    }
}
