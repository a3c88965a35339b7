import HealthJSON
import HealthOutput
import HealthQuery

/// A table format written as one table (CSV to standard output or a query's file, Parquet to
/// `X.parquet`) holds one type's rows: refused before anything is read or written when the
/// query does not name exactly one type, rather than failing at the second type's first row
/// with the first type's rows written.
enum SingleTableOutput {
    /// - Parameter csvIsOneTable: CSV is one table wherever it goes (a query's file), not only
    ///   on standard output.
    static func check(_ query: ObjectQuery, format: ObjectFormat, output: String, csvIsOneTable: Bool = false) throws {
        let destination: String
        switch format {
        case .csv where output == "-": destination = "CSV on standard output"
        case .csv where csvIsOneTable: destination = "a CSV file"
        case .parquet where ParquetWriter.isSingleFile(output): destination = "a .parquet file"
        default: return
        }
        guard query.types?.count != 1 else { return }
        throw OutputError(
            .invalidRequest,
            "\(destination) holds one table: select one type with \(argument: .types, neutral: "a type filter"), or write a folder of tables with \(argument: .output, "DIR")",
            argument: .output)
    }
}
