import Foundation
import HealthJSON
import HealthModel

/// A workout route with its points, ready to write.
public struct RouteRecord: Sendable {
    public var workout: Workout
    public var route: WorkoutRoute
    public var points: [RoutePoint]
    /// The GPX file's bytes, for passthrough.
    public var gpx: Data?

    public init(workout: Workout, route: WorkoutRoute, points: [RoutePoint], gpx: Data?) {
        self.workout = workout
        self.route = route
        self.points = points
        self.gpx = gpx
    }
}

/// Writes routes as GeoJSON (a FeatureCollection of LineStrings with the workout's properties),
/// NDJSON (one point per line), CSV (one file of points per route, in a folder) or GPX (the
/// original files, in a folder).
public final class RouteWriter {
    public enum Format: String, Sendable, CaseIterable { case geojson, ndjson, csv, gpx }

    private let format: Format
    private let out: OutputBuffer?
    private let file: AtomicFile?
    private let folder: String?
    private var first = true

    /// GeoJSON or NDJSON to a buffer (standard output) or an atomic file.
    public init(format: Format, buffer: OutputBuffer?, file: AtomicFile?) {
        self.format = format
        self.out = file?.buffer ?? buffer
        self.file = file
        self.folder = nil
    }

    /// CSV or GPX files into a folder (created if needed), each written atomically.
    public init(format: Format, folder: String) throws {
        self.format = format
        self.out = nil
        self.file = nil
        self.folder = folder
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw OutputError(.cannotCreate, "cannot create the folder", path: folder)
        }
    }

    public func begin() {
        if format == .geojson { out?.append("{\"type\":\"FeatureCollection\",\"features\":[") }
    }

    private func properties(_ record: RouteRecord, _ json: inout JSONEmitter) {
        json.beginObject()
        json.key("workoutUUID")
        json.uuid(record.workout.sample.uuid)
        json.key("routeUUID")
        json.uuid(record.route.sample.uuid)
        json.field("workoutActivityType", record.workout.workoutActivityType.name)
        json.field("startDate", record.route.sample.startDate)
        json.field("endDate", record.route.sample.endDate)
        json.field("source", record.route.sample.sourceRevision.source.name)
        json.field("fileReference", record.route.fileReference)
        json.field("pointCount", record.points.count)
        json.endObject()
    }

    public func write(_ record: RouteRecord) throws {
        switch format {
        case .geojson:
            guard let out else { return }
            if !first { out.append(0x2C) }
            first = false
            out.append("\n{\"type\":\"Feature\",\"geometry\":{\"type\":\"LineString\",\"coordinates\":[")
            for (index, point) in record.points.enumerated() {
                if index > 0 { out.append(0x2C) }
                out.append(0x5B)
                out.appendRaw(point.longitude.text)
                out.append(0x2C)
                out.appendRaw(point.latitude.text)
                if let elevation = point.elevation {
                    out.append(0x2C)
                    out.appendRaw(elevation.text)
                }
                out.append(0x5D)
            }
            out.append("]},\"properties\":")
            var json = JSONEmitter(out)
            properties(record, &json)
            out.append(0x7D)
            try out.endRecord()
        case .ndjson:
            guard let out else { return }
            for point in record.points {
                var json = JSONEmitter(out)
                json.beginObject()
                json.key("workoutUUID")
                json.uuid(record.workout.sample.uuid)
                json.key("routeUUID")
                json.uuid(record.route.sample.uuid)
                pointFields(point, &json)
                json.endObject()
                out.append(0x0A)
                try out.endRecord()
            }
        case .csv:
            guard let folder else { return }
            let file = try AtomicFile(destination: folder + "/" + record.route.sample.uuid.uuidString + ".csv")
            let scratch = OutputBuffer(descriptor: -1, capacity: 256)
            var header = CSVRow(file.buffer, scratch: scratch)
            for column in ["time", "latitude", "longitude", "elevation", "speed", "course", "horizontalAccuracy", "verticalAccuracy"] {
                header.string(column)
            }
            header.end()
            for point in record.points {
                var row = CSVRow(file.buffer, scratch: scratch)
                row.date(point.time)
                row.number(point.latitude)
                row.number(point.longitude)
                row.number(point.elevation)
                row.number(point.speed)
                row.number(point.course)
                row.number(point.horizontalAccuracy)
                row.number(point.verticalAccuracy)
                row.end()
                try file.buffer.endRecord()
            }
            try file.commit()
        case .gpx:
            guard let folder, let gpx = record.gpx, let reference = record.route.fileReference else { return }
            let name = URL(fileURLWithPath: reference).lastPathComponent
            let file = try AtomicFile(destination: folder + "/" + name)
            gpx.withUnsafeBytes { file.buffer.append($0) }
            try file.commit()
        }
    }

    private func pointFields(_ point: RoutePoint, _ json: inout JSONEmitter) {
        json.field("time", point.time)
        json.field("latitude", point.latitude)
        json.field("longitude", point.longitude)
        json.field("elevation", point.elevation)
        json.field("speed", point.speed)
        json.field("course", point.course)
        json.field("horizontalAccuracy", point.horizontalAccuracy)
        json.field("verticalAccuracy", point.verticalAccuracy)
    }

    public func finish() throws {
        if format == .geojson { out?.append("\n]}\n") }
        if let file { try file.commit() } else { try out?.flush() }
    }

    public func abandon() {
        file?.abandon()
        out?.discard()
    }
}

/// Writes electrocardiograms and clinical records with their resources, one JSON object per
/// line (NDJSON) or as one array (JSON).
public final class AttachmentRecordWriter {
    private let out: OutputBuffer
    private let file: AtomicFile?
    private let asArray: Bool
    private var first = true

    public init(json asArray: Bool, buffer: OutputBuffer?, file: AtomicFile?) {
        self.out = file?.buffer ?? buffer ?? OutputBuffer(descriptor: 1)
        self.file = file
        self.asArray = asArray
        if asArray { out.append(0x5B) }
    }

    private func separator() {
        if asArray {
            if !first { out.append(0x2C) }
            out.append(0x0A)
        }
        first = false
    }

    public func write(_ ecg: Electrocardiogram) throws {
        separator()
        var json = JSONEmitter(out)
        JSONObjectEncoder.write(ecg, to: &json)
        if !asArray { out.append(0x0A) }
        try out.endRecord()
    }

    /// A clinical record as `convert` writes it, with its FHIR resource (compact JSON from
    /// `CompactJSON`) embedded as `fhirResource.data`.
    public func write(_ record: ClinicalRecord, resource: [UInt8]?) throws {
        separator()
        var json = JSONEmitter(out)
        JSONObjectEncoder.write(record, resource: resource, to: &json)
        if !asArray { out.append(0x0A) }
        try out.endRecord()
    }

    public func finish() throws {
        if asArray { out.append("\n]\n") }
        if let file { try file.commit() } else { try out.flush() }
    }

    public func abandon() {
        file?.abandon()
        out.discard()
    }
}
