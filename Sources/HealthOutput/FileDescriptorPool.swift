#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthJSON

/// Keeps at most `limit` of a staging folder's files open, closing the one written least
/// recently when another is needed and opening it again (to append) at its next flush.
///
/// Why: a folder output holds a file per table, and an export can hold more types than a
/// process may open files (`ulimit -n` is 1024 on most systems; an export with more than
/// ~1,000 types failed with "Too many open files"). Most runs stay under the limit and never
/// close a file early; a buffer flushes every 48 KiB at most, so a file reopened costs one
/// `open(2)` per 48 KiB written at worst.
final class FileDescriptorPool: DescriptorLender {
    /// Open files at most: a quarter of the process's soft limit, within 16 to 512, leaving
    /// the rest to the reader, the sorters' spill files, SQLite and the other outputs.
    let limit: Int
    private struct Entry {
        var path: String
        var descriptor: Int32
        var lastUse: Int
    }
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var openCount = 0
    /// Files open now (never more than `limit`).
    var openFiles: Int { openCount }
    private var clock = 0

    init(limit: Int = FileDescriptorPool.defaultLimit()) {
        self.limit = max(1, limit)
    }

    static func defaultLimit() -> Int {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return 64 }
        let soft = limits.rlim_cur >= rlim_t(Int32.max) ? 4096 : Int(limits.rlim_cur)
        return min(512, max(16, soft / 4))
    }

    /// Creates `path` (it must not exist, mode 0600) and returns its buffer, open.
    ///
    /// - Throws: `OutputError.cannotCreate`, naming `name`.
    func create(_ path: String, name: String, capacity: Int) throws -> OutputBuffer {
        makeRoom()
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw OutputError(.cannotCreate, "cannot create: \(String(cString: strerror(errno)))", path: name) }
        let buffer = OutputBuffer(lender: self, capacity: capacity)
        clock += 1
        entries[ObjectIdentifier(buffer)] = Entry(path: path, descriptor: descriptor, lastUse: clock)
        openCount += 1
        return buffer
    }

    func descriptor(for buffer: OutputBuffer) throws -> Int32 {
        let key = ObjectIdentifier(buffer)
        guard var entry = entries[key] else { throw OutputError(.ioError, "write failed: the file was closed") }
        clock += 1
        entry.lastUse = clock
        if entry.descriptor < 0 {
            makeRoom()
            let descriptor = open(entry.path, O_WRONLY | O_APPEND | O_CLOEXEC)
            guard descriptor >= 0 else { throw OutputError(.ioError, "cannot open again: \(String(cString: strerror(errno)))") }
            entry.descriptor = descriptor
            openCount += 1
        }
        entries[key] = entry
        return entry.descriptor
    }

    /// Syncs `buffer`'s file to disk and closes it for good.
    func syncAndClose(_ buffer: OutputBuffer) throws {
        let descriptor = try self.descriptor(for: buffer)
        fsync(descriptor)
        close(descriptor)
        entries[ObjectIdentifier(buffer)] = nil
        openCount -= 1
    }

    /// Closes every file (the output is abandoned).
    func closeAll() {
        for entry in entries.values where entry.descriptor >= 0 { close(entry.descriptor) }
        entries.removeAll()
        openCount = 0
    }

    /// Closes the file written least recently when `limit` are open.
    private func makeRoom() {
        guard openCount >= limit else { return }
        var oldest: (key: ObjectIdentifier, lastUse: Int)? = nil
        for (key, entry) in entries where entry.descriptor >= 0 && entry.lastUse < (oldest?.lastUse ?? .max) {
            oldest = (key, entry.lastUse)
        }
        guard let oldest, var entry = entries[oldest.key] else { return }
        close(entry.descriptor)
        entry.descriptor = -1
        entries[oldest.key] = entry
        openCount -= 1
    }
}
