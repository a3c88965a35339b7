import GRDB

/// What a store's file is made by, for the person and their tools (`healthport info --store`):
/// its layout, the last of the migrations applied to it (`healthport-store(5)`: `v6` is layout
/// 6), and the version of the rules its summary tables were made by (`SummaryRules`). A store
/// and the healthport that wrote it are named by these, not by the program's version.
public struct StoreFormat: Codable, Sendable, Equatable {
    /// The number of the last migration applied (`v6`: 6).
    public var layout: Int
    /// The summary rules its tables were made by; `nil` before the store recorded them (an older
    /// store not yet opened by a healthport that may write it).
    public var summaryRules: Int?

    /// `v6, summary rules 2`.
    public var text: String {
        "v\(layout)" + (summaryRules.map { ", summary rules \($0)" } ?? ", summary rules not recorded")
    }

    /// Read in a transaction of `db`'s: the applied migrations' highest number.
    static func read(_ db: Database) throws -> StoreFormat {
        let applied = try StoreSchema.migrator.appliedIdentifiers(db)
        let layout = applied.compactMap { $0.hasPrefix("v") ? Int($0.dropFirst()) : nil }.max() ?? 0
        let rules = try StoreSummaries.rules(db)
        return StoreFormat(layout: layout, summaryRules: rules == 0 ? nil : rules)
    }
}

extension HealthStore {
    /// The store's layout and summary rules (`StoreFormat`).
    public func format() throws -> StoreFormat {
        try Self.wrap(path) { try database.read { db in try StoreFormat.read(db) } }
    }
}

/// What opening a store changed in its file: an older layout upgraded, summary tables made by
/// older rules made anew. The command that opened it says so once (`StoreUpgradeNote`); the next
/// one finds nothing to do.
public struct StoreUpgrade: Sendable, Equatable {
    public var from: StoreFormat
    public var to: StoreFormat
    /// Whether the summary tables were made anew, whole, by this healthport's rules.
    public var remadeSummaries: Bool
}
