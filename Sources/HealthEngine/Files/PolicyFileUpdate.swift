import Foundation
import HealthOutput
import HealthQuery

extension AuthorizationPolicy {
    /// Reads the policy file, changes it and writes it back, as one step no other writer of the
    /// same file can come between (HealthKit's authorization sheet answers are never lost).
    ///
    /// Every writer of a policy (`healthport auth request`, the assistant's request tools,
    /// HealthKitPort) comes through here: fifteen concurrent `auth request` runs on one file
    /// each read it, changed it and replaced it with no lock, and kept 3 to 7 of 16 decisions.
    /// The lock is `flock(2)` on the file's folder (`PolicyFileLock`): the file itself cannot
    /// carry it, because each write replaces it with a new file (renamed into place), and a
    /// lock on the folder is released by the kernel when a writer dies, so a crash never leaves
    /// the policy locked.
    ///
    /// - Parameters:
    ///   - path: the policy file.
    ///   - initial: the policy to start from when the file does not exist yet; `nil` makes a
    ///     missing file an error, as `load(from:)` reports it.
    ///   - change: applied to the policy as it is on disk now, under the lock.
    /// - Returns: the policy written.
    /// - Throws: `PolicyFileError` (unreadable, invalid or unwritable file), or what `change`
    ///   throws (then nothing is written).
    @discardableResult
    public static func update(
        file path: String, startingFrom initial: AuthorizationPolicy? = nil, _ change: (inout AuthorizationPolicy) throws -> Void
    ) throws -> AuthorizationPolicy {
        try PolicyFileLock.holding(for: path) {
            var policy: AuthorizationPolicy
            if let initial, !FileManager.default.fileExists(atPath: path) {
                policy = initial
            } else {
                policy = try AuthorizationPolicy.load(from: path)
            }
            try change(&policy)
            try policy.writeUnlocked(to: path)
            return policy
        }
    }
}

/// The lock every writer of a policy file holds while it reads, changes and replaces it: an
/// exclusive `flock(2)` on the folder the file is in (its real folder, past symbolic links, as
/// `AtomicFile` replaces the link's target).
///
/// A folder rather than a lock file beside the policy: nothing is created, so nothing is left
/// behind, and the kernel drops the lock with the process that held it. Policies in one folder
/// wait for each other, which costs a few milliseconds.
enum PolicyFileLock {
    static func holding<T>(for path: String, _ body: () throws -> T) throws -> T {
        let target = AtomicFile.followingLinks(path)
        let folder = URL(fileURLWithPath: target).deletingLastPathComponent().path
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw PolicyFileError(path: path, message: "cannot lock the policy's folder: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw PolicyFileError(path: path, message: "cannot lock the policy's folder: \(String(cString: strerror(errno)))")
            }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
