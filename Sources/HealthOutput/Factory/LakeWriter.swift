import Foundation
import HealthJSON
import HealthModel

/// One export's writer in a `--partition` lake (`BatchConversionRun`): a folder of tables in the
/// lake's format, what it wrote (for the lake's manifest), and where its summary tables go
/// (CSV and Parquet lakes as tables, FHIR lakes as Observations). Made here, beside the writers
/// of every other output (`ObjectWriterFactory`), so that a run never picks a writer class
/// itself.
public struct LakeWriter {
    public let writer: any ObjectWriter
    /// The files written, relative to the folder.
    public let writtenFiles: () -> [String]
    /// Rows per file where the writer knows them without reading its files again (Parquet).
    public let rowCounts: () -> [String: Int64]
    /// Where the daily summary, the sleep nights and the day table go, when the format holds
    /// them (FHIR: the days and nights as Observations).
    public let summaryDestination: (any SummaryTableDestination)?

    /// - Parameters:
    ///   - format: `.csv`, `.parquet`, `.fhir`; anything else is NDJSON, one file per type
    ///     when `splitsByType`.
    ///   - clinicalResource: a clinical record's FHIR resource by its path in the export (FHIR).
    ///   - localTimes: whether samples carry their local times, and the person's zone.
    public static func make(
        _ format: ObjectFormat, folder: String, splitsByType: Bool, parquet: ParquetOptions,
        clinicalResource: @escaping (String) throws -> Data?, localTimes: LocalTimeSetting = .none
    ) throws -> LakeWriter {
        switch format {
        case .csv:
            let csv = try CSVWriter(folder: folder)
            csv.localTimes = localTimes.makeLocalTimes()
            return LakeWriter(writer: csv, writtenFiles: { csv.writtenFiles }, rowCounts: { [:] }, summaryDestination: csv)
        case .fhir:
            let fhir = try FHIRBulkWriter(folder: folder)
            // The lake's manifest records the files; the resources' own files are the output.
            fhir.writesManifest = false
            fhir.clinicalResource = clinicalResource
            // The days and nights as Observations, in the same Observation.ndjson.
            return LakeWriter(writer: fhir, writtenFiles: { fhir.writtenFiles }, rowCounts: { [:] }, summaryDestination: fhir)
        case .parquet:
            let writer = try ParquetWriter(folder: folder, options: parquet)
            writer.localTimes = localTimes.makeLocalTimes()
            return LakeWriter(writer: writer, writtenFiles: { writer.writtenFiles }, rowCounts: { writer.rowCounts }, summaryDestination: writer)
        case .omh:
            throw OutputError(
                .invalidRequest, "\(argument: .format, "omh", neutral: "Open mHealth") writes one stream of data points, not a lake",
                argument: .format)
        case .ndjson, .json, .export:
            let ndjson = try NDJSONTablesWriter(folder: folder, splitsByType: splitsByType)
            ndjson.localTimes = localTimes.makeLocalTimes()
            return LakeWriter(writer: ndjson, writtenFiles: { ndjson.writtenFiles }, rowCounts: { [:] }, summaryDestination: nil)
        }
    }
}
