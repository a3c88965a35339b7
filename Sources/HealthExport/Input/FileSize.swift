import Foundation

/// The size of a file, from `stat(2)` alone.
///
/// Foundation's `attributesOfItem` answers the same question but also looks up the file's
/// owner and group by name, reading `/etc/passwd` and `/etc/group` each time: the reader asks
/// for a size when it opens every input, so that was most of an open's system calls.
enum FileSize {
    /// The size of the file `path` names (following links), or `nil` when it cannot be stated.
    static func of(_ path: String) -> Int64? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int64(status.st_size)
    }
}
