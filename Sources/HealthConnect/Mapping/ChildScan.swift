/// A child table read beside its records: its rows in `parent_key` order, one row ahead, so
/// that a record's children are found by a merge of two ordered scans, without an index the
/// file may not have, and nothing is held but the row ahead.
final class ChildScan {
    let table: RecordTable.ChildTable
    let statement: ReadOnlyDatabase.Statement
    /// Whether `statement` stands on a row not yet handed out.
    private var pending: Bool

    init(_ table: RecordTable.ChildTable, database: ReadOnlyDatabase) throws(HealthConnectError) {
        self.table = table
        statement = try database.prepare(
            "SELECT \(table.columns.joined(separator: ", ")) FROM \(table.name) WHERE parent_key IS NOT NULL ORDER BY parent_key, \(table.order)",
            table: table.name)
        pending = try statement.step()
    }

    /// Passes over the rows of records before `row` (children of no record read), and says
    /// whether `row` has any.
    func move(to row: Int64) throws(HealthConnectError) -> Bool {
        while pending && statement.int64(0) < row { pending = try statement.step() }
        return pending && statement.int64(0) == row
    }

    /// Hands each row of record `row` to `body`, with its place among them, in `table.order`.
    func forEach(of row: Int64, _ body: (ReadOnlyDatabase.Statement, Int) throws -> Void) throws {
        var index = 0
        while try move(to: row) {
            try body(statement, index)
            index += 1
            pending = try statement.step()
        }
    }
}
