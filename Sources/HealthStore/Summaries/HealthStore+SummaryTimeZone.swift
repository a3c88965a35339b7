import Foundation

extension HealthStore {
    /// The zone the store's summary tables cut days in (decided at its first summary and kept:
    /// `StoreSummaries`); `nil` while it holds no sample. `stats --store` and
    /// `summary --store` cut days there too unless told otherwise, so they give the rows SQL
    /// over `daily_summary` gives.
    ///
    /// - Throws: `StoreError.incompatible` for a zone this system does not know.
    public func summaryTimeZone() throws -> TimeZone? {
        try Self.wrap(path) { try database.read { db in try StoreSummaries.timeZone(db, path: path) } }
    }
}
