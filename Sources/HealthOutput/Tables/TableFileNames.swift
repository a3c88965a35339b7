import HealthModel

/// The file names of a folder of tables (CSV, Parquet, NDJSON partitions): a sample type's table
/// is named by its short name (`StepCount.csv`), or by its full identifier when another type
/// already took the short name; other tables by their stem (`workouts.csv`). Names never hold a
/// path separator or start with a dot, whatever the export calls its types.
struct TableFileNames {
    private var usedStems: [String: OutputTable] = [:]

    /// The name of `table`'s file, first asked for now (each table is asked once).
    mutating func name(for table: OutputTable, fileExtension: String) -> String {
        var stem = table.fileStem
        switch table {
        case .quantitySamples(let type), .categorySamples(let type):
            let short = TypeCatalogue.shortName(of: type)
            stem = Self.safeFileStem(usedStems[short] == nil ? short : type)
        default:
            break
        }
        usedStems[stem] = table
        return stem + "." + fileExtension
    }

    /// A type identifier as a file name: no path separators, no leading dot.
    static func safeFileStem(_ stem: String) -> String {
        var result = String(stem.map { $0 == "/" || $0 == "\\" || $0 == "\0" ? "_" : $0 })
        if result.hasPrefix(".") { result = "_" + result.dropFirst() }
        if result.isEmpty { result = "_" }
        return String(result.prefix(200))
    }
}
