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
            Signals.install()
            let log = Diagnostics()
            log.quiet = diagnostics.quiet || filter.policy != nil
            try log.run {
                var query = try filter.makeQuery()
                if let types = query.types, types != [ObjectType.workout.identifier] {
                    throw QueryError(.errorInvalidArgument, "routes belong to workouts: --type may only be Workout")
                }
                query.types = [ObjectType.workout.identifier]
                let executor = QueryExecutor(query)
                try executor.validate()
                let reader = try ExportReader(ExportInput(argument: input.export))
                final class Collect: ExportSink {
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

    /// `healthport ecg`: the Apple Watch electrocardiograms.
    struct ECG: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ecg",
            abstract: "Electrocardiograms: classification, sample rate, lead and microvolt samples.",
            discussion: "See healthport-ecg(1).")

        @OptionGroup var input: InputOptions
        @OptionGroup var filter: FilterOptions

        @Option(name: .shortAndLong, help: "Output: ndjson (default) or json.")
        var format: OutputFormat = .ndjson

        @Option(name: .shortAndLong, help: ArgumentHelp("A file; default standard output.", valueName: "path"))
        var output: String = "-"

        @OptionGroup var diagnostics: DiagnosticOptions

        func run() throws {
            let log = Diagnostics()
            log.quiet = diagnostics.quiet || filter.policy != nil
            try log.run {
                guard format != .csv else { throw QueryError(.errorInvalidArgument, "ecg writes ndjson or json") }
                // The same read path as every other object: --start/--end, --uuid, --where and
                // --policy all apply. An ECG file has no source, device record or metadata, so
                // --source, --device and predicates over those match nothing.
                let query = try filter.makeQuery()
                let executor = QueryExecutor(query)
                var encoder = CanonicalEncoder()
                let reader = try ExportReader(ExportInput(argument: input.export))
                let writer = AttachmentRecordWriter(
                    json: format == .json, buffer: output == "-" ? OutputBuffer(descriptor: 1) : nil,
                    file: output == "-" ? nil : try AtomicFile(destination: output))
                do {
                    for file in reader.layout.sideFiles where file.hasPrefix("electrocardiograms/") && file.lowercased().hasSuffix(".csv") {
                        do {
                            guard let data = try reader.attachment(file) else { continue }
                            var ecg = try ElectrocardiogramReader.read(data, file: file)
                            ecg.uuid = ObjectIdentity.uuid(of: .electrocardiogram(ecg), encoder: &encoder)
                            guard executor.admits(.electrocardiogram(ecg)) else { continue }
                            try writer.write(ecg)
                        } catch let error as ExportError where error.code != .unsafeMemberPath {
                            log.warning(error.message, at: reader.input.displayName)
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

    /// `healthport clinical`: clinical records with their FHIR resources.
    struct Clinical: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Clinical records with their FHIR resources embedded.", discussion: "See healthport-clinical(1).")

        @OptionGroup var input: InputOptions
        @OptionGroup var filter: FilterOptions

        @Option(name: .shortAndLong, help: "Output: ndjson (default) or json.")
        var format: OutputFormat = .ndjson

        @Option(name: .shortAndLong, help: ArgumentHelp("A file; default standard output.", valueName: "path"))
        var output: String = "-"

        @OptionGroup var diagnostics: DiagnosticOptions

        func run() throws {
            let log = Diagnostics()
            log.quiet = diagnostics.quiet || filter.policy != nil
            try log.run {
                guard format != .csv else { throw QueryError(.errorInvalidArgument, "clinical writes ndjson or json") }
                var query = try filter.makeQuery()
                let clinicalTypes = Set(TypeCatalogue.all.filter { $0.kind == .clinicalRecord }.map(\.identifier))
                query.types = query.types.map { $0.intersection(clinicalTypes) } ?? nil
                let executor = QueryExecutor(query)
                let reader = try ExportReader(ExportInput(argument: input.export))
                let writer = AttachmentRecordWriter(
                    json: format == .json, buffer: output == "-" ? OutputBuffer(descriptor: 1) : nil,
                    file: output == "-" ? nil : try AtomicFile(destination: output))
                final class Sink: ExportSink {
                    let executor: QueryExecutor
                    let reader: ExportReader
                    let writer: AttachmentRecordWriter
                    let log: Diagnostics
                    init(executor: QueryExecutor, reader: ExportReader, writer: AttachmentRecordWriter, log: Diagnostics) {
                        self.executor = executor
                        self.reader = reader
                        self.writer = writer
                        self.log = log
                    }
                    func exportDidBegin(_ header: ExportHeader) throws {}
                    func consume(_ object: HealthObject) throws {
                        guard case .clinicalRecord(let record) = object, executor.admits(object) else { return }
                        var resource: Data? = nil
                        if let path = record.resourceFilePath {
                            do {
                                resource = try reader.attachment(path)
                                if resource == nil {
                                    log.warning("the FHIR resource \(path) is missing from the export")
                                } else if (try? JSONSerialization.jsonObject(with: resource!, options: [.fragmentsAllowed])) == nil {
                                    log.warning("the FHIR resource \(path) is not valid JSON; the record is written without it")
                                    resource = nil
                                }
                            } catch let error as ExportError where error.code == .unsafeMemberPath {
                                log.warning(error.message)
                            }
                        }
                        try writer.write(object, resource: resource)
                    }
                }
                do {
                    let summary = try reader.read(
                        into: Sink(executor: executor, reader: reader, writer: writer, log: log), warning: { log.warning($0) },
                        types: executor.typesToRead ?? clinicalTypes.union(
                            ["HKClinicalTypeIdentifierPatientRecord"]))
                    log.repeats(summary.warnings)
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

extension RoutePoint {
    /// A point from a pre-iOS 13 inline `Location`.
    init?(location: RouteLocation) {
        guard let latitude = location.latitude, let longitude = location.longitude else { return nil }
        self.init(latitude: latitude, longitude: longitude)
        time = location.date
        elevation = location.altitude
        speed = location.speed
        course = location.course
        horizontalAccuracy = location.horizontalAccuracy
        verticalAccuracy = location.verticalAccuracy
    }
}
