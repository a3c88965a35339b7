import Foundation
import HealthExport
import HealthModel
import HealthOutput
import HealthQuery

/// Workout routes with their points, read from the GPX files, joined to their workouts
/// (`healthport routes`). Only routes the policy lets through are read.
public struct RouteRun: Sendable {
    public var export: String
    /// How the export is read (the parser, threads, a FIFO's wait): the face's options.
    public var reading = ReadOptions()
    /// Its types, when given, may only be workouts.
    public var query: ObjectQuery
    public var format: RouteWriter.Format
    /// A file (GeoJSON, NDJSON), a folder (CSV, GPX), or `-`.
    public var output: String

    public init(export: String, query: ObjectQuery = ObjectQuery(), format: RouteWriter.Format = .geojson, output: String = "-") {
        self.export = export
        self.query = query
        self.format = format
        self.output = output
    }

    public struct Summary: Sendable {
        public var routes: Int
        public var warnings: [RepeatedWarning]
    }

    public func run(reporter: RunReporter = .silent, cancellation: RunCancellation? = nil) throws(RunError) -> Summary {
        try RunError.wrapping { try execute(reporter: reporter, cancellation: cancellation) }
    }

    private func execute(reporter: RunReporter, cancellation: RunCancellation?) throws -> Summary {
        try OutputInputGuard.check(outputs: [output], inputs: [export], query: query)
        var query = self.query
        if let types = query.types, types != [ObjectType.workout.identifier] {
            throw QueryError(.errorInvalidArgument, "routes belong to workouts: \(argument: .types) may only be Workout", argument: .types)
        }
        query.types = [ObjectType.workout.identifier]
        let context = try RunContext(query: query, reporter: reporter, cancellation: cancellation)
        let reporter = context.reporter
        let reader = try ExportReader.open(export, reading: reading, cancellation: cancellation)
        let sink = WorkoutsWithRoutes()
        let read = context.read(reader)
        let summary = try read.run(into: sink)
        let writer = try RouteWriter.make(format, to: OutputDestination(output))
        let loading = RouteLoading(reader: reader, reporter: reporter)
        var routes = 0
        writer.begin()
        do {
            for workout in sink.workouts {
                for route in workout.routes {
                    var points: [RoutePoint] = []
                    var gpx: Data? = nil
                    if let reference = route.fileReference {
                        let missing = "the route file \(reference) of the workout \(workout.sample.uuid) is missing from the export"
                        guard let (read, data) = try loading.points(reference, missing: missing) else { continue }
                        points = read
                        gpx = data
                    } else {
                        points = route.locations.compactMap(RoutePoint.init(location:))
                    }
                    try writer.write(RouteRecord(workout: workout, route: route, points: points, gpx: gpx))
                    routes += 1
                }
            }
            try writer.finish()
        } catch {
            writer.abandon()
            throw error
        }
        return Summary(routes: routes, warnings: context.warnings(of: summary))
    }
}

/// After the gate: the workouts that have routes (their routes already limited by the policy).
final class WorkoutsWithRoutes: ObjectSink {
    var workouts: [Workout] = []
    func exportDidBegin(_ header: ExportHeader) throws {}
    func consume(_ object: HealthObject) throws {
        // Routes only: the workout without its other parts keeps memory small.
        guard case .workout(let workout) = object, !workout.routes.isEmpty else { return }
        workouts.append(workout)
    }
}
