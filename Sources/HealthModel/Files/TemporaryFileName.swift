import Foundation

/// The name of a temporary file healthport writes beside its destination until it is complete:
/// `.NAME.healthport-<pid>-XXXXXX`, hidden, and carrying its owner's process id.
///
/// Why the process id: a `kill -9`, a power loss or `SIGXFSZ` runs no handler, so what a killed
/// run left beside its destination is removed by a later run in the same folder, and only once
/// its owner is gone (`ownerIsGone`); a temporary another run is still writing is kept. The
/// writers' atomic outputs (HealthOutput's `AtomicFile`, `StaleTemporaries`) and a store's first
/// import (HealthStore) name their temporaries by this one rule, here because neither module
/// depends on the other, so each recognises what the other left.
public enum TemporaryFileName {
    /// The marker in every temporary name, before the owner's process id.
    public static let marker = ".healthport-"

    /// `.NAME.healthport-<pid>-`, this process's prefix for a temporary beside a file named
    /// `name`; the caller appends what makes it unique (`mkstemp`'s `XXXXXX`).
    public static func prefix(for name: String) -> String { ".\(name)\(marker)\(getpid())-" }

    /// The process id in a temporary's name (the digits after the last marker, followed by
    /// `-`), or `nil` for any other name. Files SQLite makes beside a temporary (`…-wal`,
    /// `…-shm`) carry the same id.
    public static func ownerProcess(of name: String) -> pid_t? {
        guard name.hasPrefix("."), let range = name.range(of: marker, options: .backwards),
            range.lowerBound > name.startIndex
        else {
            return nil
        }
        return processID(at: name[range.upperBound...])
    }

    /// The process id at the start of `rest` (`<digits>-…`), or `nil`.
    public static func processID(at rest: Substring) -> pid_t? {
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, rest.dropFirst(digits.count).first == "-", let pid = pid_t(digits), pid > 0 else {
            return nil
        }
        return pid
    }

    /// Whether the process that owned a temporary no longer exists (`kill(pid, 0)` fails with
    /// `ESRCH`). This process, and one that exists but is another user's (`EPERM`), are not gone.
    /// A process id reused since by another process keeps the temporary: the safe mistake.
    public static func ownerIsGone(_ pid: pid_t) -> Bool {
        guard pid != getpid() else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }
}
