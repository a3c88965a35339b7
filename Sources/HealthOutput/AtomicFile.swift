import Foundation

/// A file written under a temporary name beside its destination, mode 0600, and renamed into
/// place only when complete, so that a failed or interrupted run never leaves a half-written
/// output (health data: only the owner may read it).
///
/// Temporary names are registered with `TemporaryFiles` so that the CLI's interrupt handler can
/// remove them.
public final class AtomicFile {
    public let destination: String
    public let temporaryPath: String
    public let buffer: OutputBuffer
    private var finished = false

    /// Creates the temporary file next to `destination`.
    ///
    /// - Throws: `OutputError.cannotCreate`.
    public init(destination: String) throws {
        self.destination = destination
        let url = URL(fileURLWithPath: destination)
        let directory = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        var template = Array("\(directory)/.\(name).healthport-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw OutputError(.cannotCreate, "cannot create: \(String(cString: strerror(errno)))", path: destination)
        }
        fchmod(fd, 0o600)
        temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        buffer = OutputBuffer(descriptor: fd)
        TemporaryFiles.shared.register(temporaryPath)
    }

    deinit {
        if !finished { abandon() }
    }

    /// Flushes, syncs and renames the file into place.
    public func commit() throws {
        guard !finished else { return }
        do {
            try buffer.flush()
        } catch let error as OutputError {
            abandon()
            throw OutputError(error.code, error.message, path: destination)
        }
        if fsync(buffer.descriptor) != 0 && errno != EINVAL {
            let message = String(cString: strerror(errno))
            abandon()
            throw OutputError(.ioError, "cannot sync: \(message)", path: destination)
        }
        close(buffer.descriptor)
        if rename(temporaryPath, destination) != 0 {
            let message = String(cString: strerror(errno))
            unlink(temporaryPath)
            finished = true
            TemporaryFiles.shared.unregister(temporaryPath)
            throw OutputError(.cannotCreate, "cannot move into place: \(message)", path: destination)
        }
        finished = true
        TemporaryFiles.shared.unregister(temporaryPath)
    }

    /// Removes the temporary file; the destination is untouched.
    public func abandon() {
        guard !finished else { return }
        finished = true
        buffer.discard()
        close(buffer.descriptor)
        unlink(temporaryPath)
        TemporaryFiles.shared.unregister(temporaryPath)
    }
}

/// The temporary files in flight, for removal when the process is interrupted.
public final class TemporaryFiles: @unchecked Sendable {
    public static let shared = TemporaryFiles()
    private let lock = NSLock()
    private var paths: Set<String> = []

    public func register(_ path: String) {
        lock.lock()
        paths.insert(path)
        lock.unlock()
    }

    public func unregister(_ path: String) {
        lock.lock()
        paths.remove(path)
        lock.unlock()
    }

    /// Removes every registered file (and folder); called on SIGINT.
    public func removeAll() {
        lock.lock()
        let current = paths
        paths.removeAll()
        lock.unlock()
        for path in current {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                try? FileManager.default.removeItem(atPath: path)
            } else {
                unlink(path)
            }
        }
    }
}
