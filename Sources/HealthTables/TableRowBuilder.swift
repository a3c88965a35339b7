import HealthJSON
import HealthModel

/// Receives one table row's cells, in column order, each with its column's name and a typed
/// value: the seam between the tables' schema (`TableRows`, written once) and the formats that
/// lay rows out (CSV's fields; a columnar writer's typed columns).
///
/// A `nil` value is an empty cell. The same row function called for every row of a table gives
/// the same names in the same order, whatever the values: a writer may take its header or its
/// schema from the first row it receives.
package protocol TableRowBuilder {
    mutating func string(_ column: String, _ value: String?)
    /// A number as the export spelled it (kept exact).
    mutating func number(_ column: String, _ value: ExportNumber?)
    mutating func int(_ column: String, _ value: Int?)
    /// A Boolean HealthKit holds as one (audiogram masking): `true`/`false` in CSV, `BOOLEAN`
    /// in Parquet.
    mutating func bool(_ column: String, _ value: Bool?)
    /// An instant with the UTC offset it was recorded with.
    mutating func date(_ column: String, _ value: ExportTimestamp?)
    /// A wall-clock date and time without an offset (`2024-07-01T08:30:00`): the timestamp's
    /// clock at its own offset (a sample's local time, `LocalTimes`). Parquet's
    /// `TIMESTAMP(isAdjustedToUTC = false)`.
    mutating func localDate(_ column: String, _ value: ExportTimestamp?)
    /// An instant with hundredths of a second past it (a heartbeat's time, which the export
    /// prints to the hundredth): the same column as `date(_:_:)`, its fraction kept.
    mutating func date(_ column: String, _ value: ExportTimestamp?, hundredths: Int?)
    mutating func uuid(_ column: String, _ value: ObjectUUID?)
    /// A calendar date, the person's local day (`yyyy-MM-dd`; Parquet's `DATE`).
    mutating func day(_ column: String, _ value: CalendarDate?)
    /// A JSON object written by `body` (metadata, extensions), held as text; `nil` for empty.
    mutating func json(_ column: String, _ body: ((inout JSONEmitter) -> Void)?)
}
