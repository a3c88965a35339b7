import GRDB

/// The store's migrations, applied together in one transaction.
///
/// Why not GRDB's `DatabaseMigrator`, which the store used before: it commits each migration
/// on its own. An older store that a later migration refused (a damaged row) was left half
/// upgraded (`v3` and `v4` committed; the healthport that made it could no longer open it),
/// a kill in the first tenth of a second left the next command facing "table kinds already
/// exists", and two processes upgrading one store at once raced each other into raw SQLite
/// errors ("UNIQUE constraint failed"). Here every pending migration runs inside one
/// `BEGIN IMMEDIATE`: the store is the older one or the newer one, never between; a second
/// process waits for the first's lock (the busy timeout) and then finds nothing to do, since
/// what is pending is read inside the transaction.
///
/// The applied migrations are recorded in GRDB's table, `grdb_migrations`, as before, so
/// that every store written so far reads the same.
struct StoreMigrator {
    private(set) var migrations: [String] = []
    private var bodies: [String: (Database) throws -> Void] = [:]
    /// Run after the pending migrations, in their transaction, when any ran: work that uses
    /// today's code on today's tables (`LegacyRowMove`), which no migration may do.
    var finish: ((Database) throws -> Void)? = nil

    mutating func registerMigration(_ identifier: String, migrate: @escaping (Database) throws -> Void) {
        precondition(bodies[identifier] == nil, "migration \(identifier) registered twice")
        migrations.append(identifier)
        bodies[identifier] = migrate
    }

    /// The migrations recorded as applied (unknown ones, a newer healthport's, included).
    func appliedIdentifiers(_ db: Database) throws -> Set<String> {
        guard try StoreSchema.hasTable(db, "grdb_migrations") else { return [] }
        return Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
    }

    /// Whether every known migration is applied.
    func hasCompletedMigrations(_ db: Database) throws -> Bool {
        Set(migrations).isSubset(of: try appliedIdentifiers(db))
    }

    /// Applies every pending migration up to `last` (all of them by default), in order, in one
    /// transaction.
    func migrate(_ writer: some DatabaseWriter, upTo last: String? = nil) throws {
        let wanted = last.flatMap { migrations.firstIndex(of: $0) }.map { Array(migrations[...$0]) } ?? migrations
        try writer.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                // Foreign keys are checked at the commit, once every migration has run (a
                // table rebuilt in one migration is referred to again only in a later one).
                try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
                let applied = try appliedIdentifiers(db)
                var ran = false
                for identifier in wanted where !applied.contains(identifier) {
                    try bodies[identifier]!(db)
                    try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [identifier])
                    ran = true
                }
                if ran, wanted.count == migrations.count, let finish { try finish(db) }
                return .commit
            }
        }
    }
}
