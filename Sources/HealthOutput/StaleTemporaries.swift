import Foundation
import HealthModel

/// Temporaries a killed healthport left behind, recognised and removed by the next run that
/// writes in the same folder.
///
/// Every temporary name carries its owner's process id — `.NAME.healthport-<pid>-XXXXXX` for a
/// file, `.healthport-staging-<pid>-XXXXXX` for a folder — so a later run can tell a temporary
/// whose owner is gone (`kill(pid, 0)` fails with `ESRCH`) from one another run is still
/// writing, and remove only the former. A `kill -9`, a power loss or `SIGXFSZ` cannot run any
/// handler: this is what makes health data not linger beside the outputs. (Files written with
/// `O_TMPFILE` have no name to leave at all; see `AtomicFile`.)
public enum StaleTemporaries {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var cleaned = Set<String>()

    /// `.NAME.healthport-<pid>-` for a temporary beside `destination` (`TemporaryFileName`).
    static func filePrefix(for name: String) -> String { TemporaryFileName.prefix(for: name) }

    /// Removes, in `directory`, the temporaries whose owner process no longer exists; once per
    /// folder and process (a run writing thousands of route files into one folder scans it once).
    public static func removeStale(in directory: String) {
        lock.lock()
        let first = cleaned.insert(directory).inserted
        lock.unlock()
        guard first else { return }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(".") {
            guard let pid = ownerProcess(of: name), TemporaryFileName.ownerIsGone(pid) else { continue }
            let path = directory + "/" + name
            var status = stat()
            // Only what this user made (a shared folder may hold other people's files).
            guard lstat(path, &status) == 0, status.st_uid == getuid() else { continue }
            if (status.st_mode & S_IFMT) == S_IFDIR {
                try? FileManager.default.removeItem(atPath: path)
            } else {
                unlink(path)
            }
        }
    }

    /// The process id in a temporary's name (a file's, `TemporaryFileName`, or a staging
    /// folder's), or `nil` for any other name.
    static func ownerProcess(of name: String) -> pid_t? {
        if name.hasPrefix(StagingFolder.namePrefix) {
            return TemporaryFileName.processID(at: name.dropFirst(StagingFolder.namePrefix.count))
        }
        return TemporaryFileName.ownerProcess(of: name)
    }
}
