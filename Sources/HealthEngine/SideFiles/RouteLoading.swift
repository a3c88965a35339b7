import Foundation
import HealthExport
import HealthModel

/// Reads a workout route's points from its GPX file; a missing or bad file is a warning.
struct RouteLoading {
    let reader: ExportReader
    let reporter: RunReporter

    /// The points of the route file `reference`; `nil` (and a warning) when it is missing or
    /// cannot be read.
    ///
    /// - Throws: `ExportError.unsafeMemberPath` for a reference that leaves the export.
    func points(_ reference: String, missing: String? = nil) throws -> (points: [RoutePoint], gpx: Data)? {
        do {
            guard let data = try reader.sideFile(reference) else {
                reporter.warning(.sideFile(missing ?? "the route file \(reference) is missing from the export"))
                return nil
            }
            let points = try GPXReader.points(in: data, file: SourceLocation(file: reader.input.displayName, member: reference))
            return (points, data)
        } catch let error as ExportError where error.code != .unsafeMemberPath {
            reporter.warning(.sideFile(error.message, at: error.location))
            return nil
        }
    }
}

/// `--include-routes`: workouts get their routes' points inline, read from the GPX files, after
/// the gate (so only routes the policy lets through are read).
final class RouteAttachingSink: ObjectSink {
    private let downstream: any ObjectSink
    private let routes: RouteLoading

    init(into downstream: any ObjectSink, routes: RouteLoading) {
        self.downstream = downstream
        self.routes = routes
    }

    func exportDidBegin(_ header: ExportHeader) throws { try downstream.exportDidBegin(header) }

    func consume(_ object: HealthObject) throws {
        guard case .workout(var workout) = object, !workout.routes.isEmpty else { return try downstream.consume(object) }
        for index in workout.routes.indices {
            guard let reference = workout.routes[index].fileReference, let (points, _) = try routes.points(reference) else { continue }
            workout.routes[index].locations = points.map {
                RouteLocation(
                    date: $0.time, latitude: $0.latitude, longitude: $0.longitude, altitude: $0.elevation,
                    horizontalAccuracy: $0.horizontalAccuracy, verticalAccuracy: $0.verticalAccuracy, course: $0.course, speed: $0.speed)
            }
        }
        try downstream.consume(.workout(workout))
    }
}
