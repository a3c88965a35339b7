import Foundation
import HealthJSON

/// A file written where no reader sees it, mode 0600, and put in place only when complete, so
/// that a failed or interrupted run never leaves a half-written output (health data: only the
/// owner may read it), and a killed one leaves nothing.
///
/// On Linux the file is opened with `O_TMPFILE`: it has no name until `commit` links it (then
/// renames it over the destination), so even `kill -9` leaves nothing behind. Where that is not
/// available (macOS, some file systems), or a name is needed while writing (`needsName`: the
/// export archive is built by a library that opens it by path), it is a hidden file whose name
/// carries this process's id, which the next run writing in the folder removes if this process
/// is gone (`StaleTemporaries`). Named temporaries are also registered with `TemporaryFiles` for
/// the CLI's interrupt handler.
public final class AtomicFile {
    public let destination: String
    /// The temporary's path while it is written; `nil` for an unnamed (`O_TMPFILE`) one.
    public let temporaryName: String?
    public let buffer: OutputBuffer
    private let directory: String
    /// Written straight to a FIFO or a device: nothing to rename.
    private var isStream = false
    private var finished = false

    /// The temporary's path; for an unnamed file, its `/proc/self/fd` path, valid while open.
    public var temporaryPath: String { temporaryName ?? "/proc/self/fd/\(buffer.descriptor)" }

    /// Creates the temporary file in `destination`'s folder, removing stale temporaries there.
    ///
    /// - Throws: `OutputError.cannotCreate`.
    public init(destination requested: String, needsName: Bool = false) throws {
        // A FIFO, a socket or a character device (`/dev/stdout`, `/dev/null`, a pipe made with
        // mkfifo), reached through links or not, is written through as a stream: renaming over
        // it would replace the node.
        var status = stat()
        let kind = stat(requested, &status) == 0 ? status.st_mode & S_IFMT : 0
        if kind == S_IFIFO || kind == S_IFCHR || kind == S_IFSOCK {
            self.destination = requested
            let destination = requested
            let fd = open(destination, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else {
                throw OutputError(.cannotCreate, "cannot open: \(String(cString: strerror(errno)))", path: requested)
            }
            directory = URL(fileURLWithPath: destination).deletingLastPathComponent().path
            temporaryName = nil
            isStream = true
            buffer = OutputBuffer(descriptor: fd)
            return
        }
        // A symbolic link to a file is followed: its target is replaced, the link stays.
        let destination = Self.followingLinks(requested)
        self.destination = destination
        let url = URL(fileURLWithPath: destination)
        directory = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        StaleTemporaries.removeStale(in: directory)
        #if os(Linux)
        // Linking the finished file goes through /proc/self/fd (absent in some chroots).
        if !needsName, access("/proc/self/fd", F_OK) == 0 {
            // O_TMPFILE (Linux ≥ 3.11): __O_TMPFILE | O_DIRECTORY; Glibc's macro is not imported.
            let fd = open(directory, 0o20_000_000 | O_DIRECTORY | O_WRONLY | O_CLOEXEC, 0o600)
            if fd >= 0 {
                fchmod(fd, 0o600)
                temporaryName = nil
                buffer = OutputBuffer(descriptor: fd)
                return
            }
        }
        #endif
        var template = Array("\(directory)/\(StaleTemporaries.filePrefix(for: name))XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw OutputError(.cannotCreate, "cannot create: \(String(cString: strerror(errno)))", path: destination)
        }
        fchmod(fd, 0o600)
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        temporaryName = path
        buffer = OutputBuffer(descriptor: fd)
        TemporaryFiles.shared.register(path)
    }

    deinit {
        if !finished { abandon() }
    }

    /// Flushes, syncs and renames the file into place.
    public func commit() throws {
        guard !finished else { return }
        if isStream {
            finished = true
            defer { close(buffer.descriptor) }
            try buffer.flush()
            return
        }
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
        var named = temporaryName
        if named == nil {
            // Give the finished file a (PID-marked) name, then rename it over the destination:
            // linkat cannot replace an existing file.
            let name = URL(fileURLWithPath: destination).lastPathComponent
            let path = "\(directory)/\(StaleTemporaries.filePrefix(for: name))\(UInt32.random(in: 0...UInt32.max))"
            if linkat(AT_FDCWD, "/proc/self/fd/\(buffer.descriptor)", AT_FDCWD, path, AT_SYMLINK_FOLLOW) != 0 {
                let message = String(cString: strerror(errno))
                abandon()
                throw OutputError(.cannotCreate, "cannot link the finished file: \(message)", path: destination)
            }
            named = path
        }
        close(buffer.descriptor)
        finished = true
        guard let temporary = named else { return }
        if rename(temporary, destination) != 0 {
            let message = String(cString: strerror(errno))
            unlink(temporary)
            TemporaryFiles.shared.unregister(temporary)
            throw OutputError(.cannotCreate, "cannot move into place: \(message)", path: destination)
        }
        TemporaryFiles.shared.unregister(temporary)
    }

    /// Removes the temporary file; the destination is untouched.
    public func abandon() {
        guard !finished else { return }
        finished = true
        buffer.discard()
        close(buffer.descriptor)
        if let temporaryName {
            unlink(temporaryName)
            TemporaryFiles.shared.unregister(temporaryName)
        }
    }
}

extension AtomicFile {
    /// `path` with its symbolic links followed (up to 16), also when the last link points to a
    /// file that does not exist yet: the file a commit replaces.
    public static func followingLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<16 {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { return current }
            current = target.hasPrefix("/") ? target : URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(target).path
        }
        return current
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
