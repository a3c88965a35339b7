import HealthJSON
import HealthOutput
import HealthQuery

extension QueryAnchor {
    /// Writes the anchor atomically, as every output is written (`AtomicFile`: a temporary
    /// file beside it, mode 0600, renamed into place when complete).
    ///
    /// - Throws: `AnchorError` naming the file.
    public func save(to path: String) throws {
        do {
            let file = try AtomicFile(destination: path)
            file.buffer.append(contentsOf: encoded())
            try file.commit()
        } catch let error as OutputError {
            throw AnchorError("\(path): cannot write: \(error.message)")
        }
    }
}

extension AuthorizationPolicy {
    /// Writes the whole policy atomically (`AtomicFile`: a failed write leaves the old policy as
    /// it was), under the policy lock, so it never lands in the middle of another writer's
    /// read-modify-write. To change a policy on disk, use `update(file:startingFrom:_:)`: a
    /// policy read earlier and saved now would undo what others wrote meanwhile.
    ///
    /// - Throws: `PolicyFileError`.
    public func save(to path: String) throws {
        try PolicyFileLock.holding(for: path) { try writeUnlocked(to: path) }
    }

    /// The write itself; the caller holds `PolicyFileLock`.
    func writeUnlocked(to path: String) throws {
        let bytes = try fileBytes()
        do {
            let file = try AtomicFile(destination: path)
            file.buffer.append(contentsOf: bytes)
            try file.commit()
        } catch let error as OutputError {
            throw PolicyFileError(path: path, message: error.message)
        }
    }
}
