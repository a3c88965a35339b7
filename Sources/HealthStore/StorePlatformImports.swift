import GRDB
import HealthModel

/// What each phone's exports brought to a store (`ExportPlatform`): how many imports, and the
/// export date of the latest. A store holding both of a person's phones shows one export date
/// in its header (the latest import's); this says how recent each phone's is, for the owner
/// (`healthport info --store`).
public struct StorePlatformImports: Codable, Sendable, Equatable {
    /// `appleHealth` or `healthConnect` (`ExportPlatform`'s raw value).
    public var platform: String
    public var imports: Int
    /// The latest import's export date (ISO 8601), when its export had one.
    public var latestExportDate: String?

    /// `Health Connect: 2 imports, latest export 2026-07-11T00:35:00+02:00`.
    public var text: String {
        let name = ExportPlatform(rawValue: platform).map(Self.name) ?? platform
        return "\(name): \(imports) import\(imports == 1 ? "" : "s")" + (latestExportDate.map { ", latest export \($0)" } ?? "")
    }

    static func name(_ platform: ExportPlatform) -> String {
        switch platform {
        case .appleHealth: "Apple Health"
        case .healthConnect: "Health Connect"
        }
    }
}

extension HealthStore {
    /// Per platform that imported into the store, in the order of `ExportPlatform`.
    public func platformImports() throws -> [StorePlatformImports] {
        try Self.wrap(path) {
            try database.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT platform, count(*),
                            (SELECT export_date FROM imports AS j WHERE j.platform = i.platform ORDER BY id DESC LIMIT 1)
                        FROM imports AS i GROUP BY platform
                        """
                ).map { StorePlatformImports(platform: $0[0], imports: $0[1], latestExportDate: $0[2]) }
                    .sorted { (Self.order($0.platform), $0.platform) < (Self.order($1.platform), $1.platform) }
            }
        }
    }

    private static func order(_ platform: String) -> Int {
        ExportPlatform.allCases.firstIndex { $0.rawValue == platform } ?? ExportPlatform.allCases.count
    }
}
