import ArgumentParser
import Foundation
import HealthExport
import HealthModel
import HealthOutput
import HealthQuery

extension Healthport {
    /// `healthport routes`: workout routes with their points, joined to their workouts.
    struct Routes: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Workout routes with their points (from the GPX files), joined to their workouts.",
            discussion: "See healthport-routes(1).")

        @OptionGroup var input: InputOptions
        @OptionGroup var filter: FilterOptions

        @Option(name: .shortAndLong, help: "Output: geojson (default), ndjson (one point per line), csv (a file per route) or gpx (the original files).")
        var format: RouteWriter.Format = .geojson

        @Option(name: .shortAndLong, help: ArgumentHelp("A file (geojson, ndjson) or a folder (csv, gpx); default standard output.", valueName: "path"))
        var output: String = "-"

        @OptionGroup var diagnostics: DiagnosticOptions

        func run() throws {
            let log = filter.diagnostics(diagnostics)
            try log.run {
                var query = try filter.makeQuery()
                if let types = query.types, types != [ObjectType.workout.identifier] {
                    throw QueryError(.errorInvalidArgument, "routes belong to workouts: --type may only be Workout")
                }
                query.types = [ObjectType.workout.identifier]
                let executor = QueryExecutor(query)
                try executor.validate()
                let reader = try ExportReader.open(input.export)
                final class Collect: ObjectSink {
                    let executor: QueryExecutor
                    var workouts: [Workout] = []
                    init(executor: QueryExecutor) { self.executor = executor }
                    func exportDidBegin(_ header: ExportHeader) throws {}
                    func consume(_ object: HealthObject) throws {
                        guard executor.admits(object), case .workout(let workout) = try executor.transform(object) else { return }
                        // Routes only: the workout without its other parts keeps memory small.
                        if !workout.routes.isEmpty { workouts.append(workout) }
                    }
                }
                let sink = Collect(executor: executor)
                let summary = try reader.read(into: sink, warning: { log.warning($0) }, types: executor.typesToRead)
                log.repeats(summary.warnings)
                let writer: RouteWriter
                switch format {
                case .geojson, .ndjson:
                    if output == "-" {
                        writer = RouteWriter(format: format, buffer: OutputBuffer(descriptor: 1), file: nil)
                    } else {
                        writer = RouteWriter(format: format, buffer: nil, file: try AtomicFile(destination: output))
                    }
                case .csv, .gpx:
                    guard output != "-" else {
                        throw QueryError(.errorInvalidArgument, "--format \(format.rawValue) writes a file per route: name a folder with --output")
                    }
                    writer = try RouteWriter(format: format, folder: output)
                }
                writer.begin()
                do {
                    for workout in sink.workouts {
                        for route in workout.routes {
                            var points: [RoutePoint] = []
                            var gpx: Data? = nil
                            if let reference = route.fileReference {
                                do {
                                    guard let data = try reader.attachment(reference) else {
                                        log.warning("the route file \(reference) of the workout \(workout.sample.uuid) is missing from the export")
                                        continue
                                    }
                                    gpx = data
                                    points = try GPXReader.points(
                                        in: data, file: SourceLocation(file: reader.input.displayName, member: reference))
                                } catch let error as ExportError where error.code != .unsafeMemberPath {
                                    log.warning(error.message, at: error.location?.description)
                                    continue
                                }
                            } else {
                                points = route.locations.compactMap(RoutePoint.init(location:))
                            }
                            try writer.write(RouteRecord(workout: workout, route: route, points: points, gpx: gpx))
                        }
                    }
                    try writer.finish()
                } catch {
                    writer.abandon()
                    throw error
                }
            }
        }
    }
}

extension RouteWriter.Format: ExpressibleByArgument {}
