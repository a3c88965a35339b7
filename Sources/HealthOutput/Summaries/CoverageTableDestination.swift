import HealthModel
import HealthTables

/// A writer of a folder of tables that can also hold the `coverage` table beside the objects'
/// tables (a lake's `type=coverage`), written into the same staged folder so it is published
/// with them or not at all.
public protocol CoverageTableDestination: AnyObject {
    func write(_ coverage: TypeCoverage) throws
}

extension CSVWriter: CoverageTableDestination {
    public func write(_ coverage: TypeCoverage) throws { try row(.coverage) { SummaryTableRows.coverage(coverage, into: &$0) } }
}

extension ParquetWriter: CoverageTableDestination {
    public func write(_ coverage: TypeCoverage) throws { try row(.coverage) { SummaryTableRows.coverage(coverage, into: &$0) } }
}
