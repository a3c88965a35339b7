import GRDB
import HealthJSON
import HealthModel

/// The devices rows name by id (`devices` table), each decoded once: objects of one device come
/// by the thousand, and the store's reader and the layout migration read them alike.
struct StoredDevices {
    private var decoded: [Int64: Device] = [:]

    /// The device `id` names.
    ///
    /// - Throws: `StoreError.incompatible` when the row is missing or does not decode.
    mutating func device(_ id: Int64, db: Database, path: String) throws -> Device {
        if let device = decoded[id] { return device }
        guard let body = try String.fetchOne(db, sql: "SELECT body FROM devices WHERE id = ?", arguments: [id]) else {
            throw StoreError(.incompatible, "\(path): the store is damaged (device \(id) is missing)")
        }
        do {
            let device = try ObjectDecoder.decodeDevice(Array(body.utf8))
            decoded[id] = device
            return device
        } catch {
            throw StoreError(.incompatible, "\(path): the store is damaged (device \(id): \(error))")
        }
    }
}
