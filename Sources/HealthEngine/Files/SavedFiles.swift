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
    /// Writes the policy atomically (`AtomicFile`): a failed write leaves the old policy as it
    /// was.
    ///
    /// - Throws: `PolicyFileError`.
    public func save(to path: String) throws {
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
