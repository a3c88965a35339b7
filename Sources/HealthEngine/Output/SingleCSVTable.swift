import HealthOutput
import HealthQuery

/// CSV written as one table (to standard output, or a query's file) holds one type's rows:
/// refused before anything is read or written when the query does not name exactly one type,
/// rather than failing at the second type's first row with the first type's rows written.
enum SingleCSVTable {
    static func check(_ query: ObjectQuery, destination: String) throws {
        guard query.types?.count != 1 else { return }
        throw OutputError(
            .invalidRequest,
            "\(destination) holds one table: select one type with --type, or write a folder of tables with convert --output DIR")
    }
}
