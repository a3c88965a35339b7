/// The formats object runs write (healthport-formats(5)).
public enum ObjectFormat: String, Sendable, CaseIterable {
    case ndjson, json, csv
    /// The CSV tables, typed, in Parquet files: a folder, or one table in `X.parquet`.
    case parquet
    /// Apple Health's own export.xml: a file, standard output, or (conversion to `X.zip`) an
    /// export archive.
    case export
    /// FHIR R4 in the Bulk Data layout: a folder of NDJSON files, one per resource type, coded
    /// as HealthKitOnFHIR codes HealthKit data; or the Observations alone on standard output.
    case fhir
    /// Open mHealth / IEEE 1752.1 data points, one per line (NDJSON), for the objects an Open
    /// mHealth schema takes (`OpenMHealthWriter`); the rest is left out and counted.
    case omh
}

extension ObjectFormat {
    /// Whether the format lays objects out as tables (`OutputTable`): CSV and Parquet.
    public var isTabular: Bool { self == .csv || self == .parquet }
}

extension ObjectFormat {
    /// Whether the format gives samples' local times beside their instants (`LocalTimes`):
    /// NDJSON, JSON, CSV and Parquet. Apple's export keeps Apple's dates as they are; FHIR
    /// gives instants with offsets.
    public var givesLocalTimes: Bool { self == .ndjson || self == .json || self == .csv || self == .parquet }
}
