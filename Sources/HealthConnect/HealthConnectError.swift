import HealthModel

/// A failure to read a Health Connect export, with where it happened as fields: the file, and
/// inside the database the table, the row (`row_id`) and the column, so that a face can say
/// `health_connect_export.zip(health_connect_export.db): steps_record_table row 12, uuid: …`
/// without reading the message.
public struct HealthConnectError: LocatedError {
    public enum Code: Sendable, Hashable {
        /// Not an SQLite database, or SQLite could not open it.
        case notADatabase
        /// An SQLite database, but not Health Connect's: a table or column it must have is
        /// missing, or has another layout.
        case notHealthConnect
        /// A value of the wrong kind or out of range (a uuid that is not 16 bytes, a time before
        /// 1900, a zone offset beyond ±18 hours).
        case invalidValue
        /// A value or table larger than the reader holds (`HealthConnectLimits`).
        case limitExceeded
        /// SQLite failed while reading (a damaged page, an I/O error).
        case readFailed
    }

    public var code: Code
    /// The table, when the fault is in one.
    public var table: String?
    /// The `row_id` of the row at fault, when it is one row.
    public var row: Int64?
    public var column: String?
    /// Lower case, no trailing period; names no personal data beyond what locates the fault.
    public var message: String

    public init(_ code: Code, _ message: String, table: String? = nil, row: Int64? = nil, column: String? = nil) {
        self.code = code
        self.message = message
        self.table = table
        self.row = row
        self.column = column
    }

    /// Where in the database: `steps_record_table row 12, column uuid`.
    public var place: String? {
        guard let table else { return nil }
        var text = table
        if let row { text += " row \(row)" }
        if let column { text += ", column \(column)" }
        return text
    }
}
