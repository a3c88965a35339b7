import HealthModel
import HealthTables

/// A writer of tables: receives each row of each table, as a body that fills its row builder
/// (a `TableRows` function).
protocol TableSink: AnyObject {
    associatedtype Row: TableRowBuilder
    /// Whether the destination holds the parts tables of workouts (events, activities,
    /// statistics, routes, locations): a folder does, one table on standard output does not.
    var holdsPartTables: Bool { get }
    /// One row of `table`; a sink that does not hold the table skips it.
    func row(_ table: OutputTable, _ body: (inout Row) -> Void) throws
    /// The local times samples' rows are given (`LocalTimes`), or `nil` for none.
    var localTimes: LocalTimes? { get }
}

/// Which tables an object's rows go to, written once for every tabular format: a sample to its
/// type's table, its beats and sensitivity points to theirs, a workout to `workouts` and its
/// parts each keyed by the workout's uuid (`healthport-formats(5)`).
///
/// Generic over the sink, and specialized for each within this module: the per-row cost is
/// the cells', nothing more.
enum TableRouting {
    /// The local-time columns of a sample in `sink`'s tables.
    @inline(__always)
    static func local<Sink: TableSink>(_ sample: SampleAttributes, in sink: Sink) -> LocalColumns {
        guard let times = sink.localTimes else { return .absent }
        return .present(times.times(of: sample))
    }

    /// An export begins: the local times learn the person's zone from its header, and a folder
    /// of tables (`holdsExportTable`) gets the export's own row, with that zone.
    static func begin<Sink: TableSink>(_ header: ExportHeader, to sink: Sink, holdsExportTable: Bool) throws {
        sink.localTimes?.begin(header)
        guard holdsExportTable else { return }
        var header = header
        header.timeZone = sink.localTimes?.personZoneName ?? header.timeZone
        try sink.row(.export) { TableRows.export(header, into: &$0) }
    }

    /// A deleted object's row in the deleted objects' table (anchored changes).
    static func writeDeleted<Sink: TableSink>(_ uuid: ObjectUUID, type: String, to sink: Sink) throws {
        try sink.row(.deletedObjects) { TableRows.deletedObject(uuid, type: type, into: &$0) }
    }

    static func write<Sink: TableSink>(_ object: HealthObject, to sink: Sink) throws {
        switch object {
        case .quantitySample(let q):
            let local = local(q.sample, in: sink)
            try sink.row(.quantitySamples(typeIdentifier: q.sample.sampleType.identifier)) { TableRows.quantitySample(q, local: local, into: &$0) }
            for beat in q.instantaneousBeatsPerMinute {
                try sink.row(.instantaneousBeatsPerMinute) { TableRows.beat(beat, of: q.sample.uuid, into: &$0) }
            }
        case .categorySample(let c):
            let local = local(c.sample, in: sink)
            try sink.row(.categorySamples(typeIdentifier: c.sample.sampleType.identifier)) { TableRows.categorySample(c, local: local, into: &$0) }
        case .correlation(let c):
            let local = local(c.sample, in: sink)
            try sink.row(.correlations) { TableRows.correlation(c, local: local, into: &$0) }
        case .workout(let w):
            try write(w, to: sink)
        case .activitySummary(let a):
            try sink.row(.activitySummaries) { TableRows.activitySummary(a, into: &$0) }
        case .clinicalRecord(let c):
            try sink.row(.clinicalRecords) { TableRows.clinicalRecord(c, into: &$0) }
        case .audiogram(let a):
            try sink.row(.audiograms) { TableRows.audiogram(a, into: &$0) }
            for point in a.sensitivityPoints {
                try sink.row(.audiogramSensitivityPoints) { TableRows.sensitivityPoint(point, of: a.sample.uuid, into: &$0) }
            }
        case .visionPrescription(let v):
            try sink.row(.visionPrescriptions) { TableRows.visionPrescription(v, into: &$0) }
        case .electrocardiogram:
            // ECGs come from their CSV files, never from export.xml, and `healthport ecg`
            // writes them as JSON only (a voltage array has no flat row).
            break
        case .unknown(let u):
            try sink.row(.unknownElements) { TableRows.unknownElement(u, into: &$0) }
        }
    }

    private static func write<Sink: TableSink>(_ w: Workout, to sink: Sink) throws {
        let local = local(w.sample, in: sink)
        try sink.row(.workouts) { TableRows.workout(w, local: local, into: &$0) }
        guard sink.holdsPartTables else { return }
        let workout = w.sample.uuid
        func parts(of activity: WorkoutActivity?) throws {
            for event in activity?.workoutEvents ?? w.workoutEvents {
                try sink.row(.workoutEvents) { TableRows.workoutEvent(event, of: workout, activity: activity?.uuid, into: &$0) }
            }
            for statistics in activity?.statistics ?? w.statistics {
                try sink.row(.workoutStatistics) { TableRows.workoutStatistics(statistics, of: workout, activity: activity?.uuid, into: &$0) }
            }
        }
        try parts(of: nil)
        for activity in w.workoutActivities {
            try sink.row(.workoutActivities) { TableRows.workoutActivity(activity, of: workout, into: &$0) }
            try parts(of: activity)
        }
        for route in w.routes {
            try sink.row(.workoutRoutes) { TableRows.workoutRoute(route, of: workout, into: &$0) }
            for location in route.locations {
                try sink.row(.workoutRouteLocations) { TableRows.routeLocation(location, of: route.sample.uuid, into: &$0) }
            }
        }
    }
}
