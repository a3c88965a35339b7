import Foundation
import HealthJSON

/// What `AtomicFile` is for one file, for a writer of several: a private hidden folder inside
/// the destination folder where the files are written (mode 0600), moved into the destination
/// only when all are complete, or removed whole. Registered with `TemporaryFiles`, so an
/// interrupted run leaves nothing behind.
///
/// With `AtomicFile`, the one implementation of "write under a temporary name, rename into
/// place" that every output uses: files, folders of tables, export archives, anchors,
/// policies and batch partitions.
public final class StagingFolder {
    public static let namePrefix = ".healthport-staging-"
    public let destination: String
    public let path: String
    private var files: [String: OutputBuffer] = [:]
    /// The files' descriptors, a bounded number open at once.
    private let descriptors: FileDescriptorPool
    /// File names in creation order: the order they are published in.
    private(set) var names: [String] = []
    private var finished = false

    /// Whether the writer created `destination` for this output: abandoned, the staging folder
    /// then removes it too if it is empty, so a failed or cancelled run leaves no empty folder.
    private let createdDestination: Bool
    /// Whether the staging folder is the destination's sibling, to be exchanged with it whole
    /// (`FolderExchange`) rather than emptied into it file by file.
    private let besideDestination: Bool
    /// Whether the destination does not exist and the staging folder becomes it, renamed whole
    /// at `publish`: no output folder exists before the output is complete, so a run killed
    /// at any moment leaves none (before, an empty one about once in 25 kills in the first
    /// tenth of a second).
    private let becomesDestination: Bool

    /// Creates the staging folder inside `destination`, which must exist.
    ///
    /// - Throws: `OutputError.cannotCreate`.
    public init(in destination: String, createdDestination: Bool = false) throws {
        descriptors = FileDescriptorPool()
        self.destination = destination
        self.createdDestination = createdDestination
        self.besideDestination = false
        self.becomesDestination = false
        path = try Self.makeFolder(in: destination, reportedAs: destination)
    }

    /// Creates the staging folder beside `destination`, which does not exist, to be renamed
    /// to it at `publish`.
    private init(becoming destination: String) throws {
        descriptors = FileDescriptorPool()
        self.destination = destination
        self.createdDestination = false
        self.besideDestination = false
        self.becomesDestination = true
        let parent = URL(fileURLWithPath: destination).deletingLastPathComponent().path
        path = try Self.makeFolder(in: parent.isEmpty ? "." : parent, reportedAs: destination)
    }

    /// Creates the staging folder beside `destination` (in its parent), so that `publish` can
    /// exchange the two whole; inside it when the parent is not writable.
    private init(beside destination: String) throws {
        descriptors = FileDescriptorPool()
        self.destination = destination
        self.createdDestination = false
        // Through URL: NSString's deletingLastPathComponent traps on a one-character name on
        // Linux (swift-corelibs-foundation), and `--output c` a second time crashed.
        self.becomesDestination = false
        let parent = URL(fileURLWithPath: destination).deletingLastPathComponent().path
        // What a killed run staged inside the folder (before it existed as an output) goes too.
        StaleTemporaries.removeStale(in: destination)
        if FolderExchange.isAvailable, let beside = try? Self.makeFolder(in: parent.isEmpty ? "." : parent, reportedAs: destination) {
            path = beside
            besideDestination = true
        } else {
            path = try Self.makeFolder(in: destination, reportedAs: destination)
            besideDestination = false
        }
    }

    /// A new private folder in `folder`, its name carrying this process's id (a later run
    /// removes it if this one died), registered with `TemporaryFiles`.
    private static func makeFolder(in folder: String, reportedAs destination: String) throws -> String {
        StaleTemporaries.removeStale(in: folder)
        var template = Array("\(folder)/\(Self.namePrefix)\(getpid())-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw OutputError(.cannotCreate, "cannot write in the folder: \(String(cString: strerror(errno)))", path: destination)
        }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        TemporaryFiles.shared.register(path)
        return path
    }

    /// The staging folder of a folder output (CSV or Parquet tables). A missing `folder` is
    /// staged beside where it goes (mode 0700) and appears, whole, when the output is complete;
    /// its missing parents are created.
    ///
    /// - Throws: `OutputError.cannotCreate` when `folder` is a file or cannot be created.
    public static func forFolderOutput(_ folder: String) throws -> StagingFolder {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: folder, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw OutputError(.cannotCreate, "exists and is not a folder", path: folder)
            }
            // A folder that held a previous output changes as a whole: staged beside it and
            // exchanged with it, so no reader, crash or signal ever sees old and new tables mixed.
            return try StagingFolder(beside: folder)
        }
        let parent = URL(fileURLWithPath: folder).deletingLastPathComponent().path
        if !parent.isEmpty && !manager.fileExists(atPath: parent) {
            do {
                try manager.createDirectory(atPath: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw OutputError(.cannotCreate, "cannot create the folder", path: folder)
            }
        }
        return try StagingFolder(becoming: folder)
    }

    deinit {
        abandon()
    }

    /// The buffer of a new file `name`.
    ///
    /// Files stay open up to the pool's limit (`FileDescriptorPool`); past it, the one written
    /// least recently is closed, and opened again when its buffer flushes.
    func create(_ name: String) throws -> OutputBuffer {
        let out = try descriptors.create(path + "/" + name, name: name, capacity: 64 * 1024)
        files[name] = out
        names.append(name)
        return out
    }

    /// Flushes and syncs every file, then moves each into the destination; on any failure,
    /// removes everything staged and throws.
    func publish() throws {
        for name in names {
            guard let file = files[name] else { continue }
            do {
                try file.flush()
                try descriptors.syncAndClose(file)
            } catch let error as OutputError {
                abandon()
                throw OutputError(error.code, error.message, path: name)
            }
        }
        files.removeAll()
        if becomesDestination {
            guard rename(path, destination) == 0 else {
                let message = errno == EEXIST || errno == ENOTEMPTY ? "it was created by another program meanwhile" : String(cString: strerror(errno))
                abandon()
                throw OutputError(.cannotCreate, "cannot move into place: \(message)", path: destination)
            }
            TemporaryFiles.shared.unregister(path)
            finished = true
            return
        }
        if besideDestination {
            do {
                if try FolderExchange.exchange(staged: path, names: Set(names), with: destination) {
                    // The previous output is now at the staging path.
                    try? FileManager.default.removeItem(atPath: path)
                    TemporaryFiles.shared.unregister(path)
                    finished = true
                    return
                }
            } catch {
                abandon()
                throw error
            }
        }
        for name in names where rename(path + "/" + name, destination + "/" + name) != 0 {
            let message = String(cString: strerror(errno))
            abandon()
            throw OutputError(.cannotCreate, "cannot move into place: \(message)", path: destination + "/" + name)
        }
        rmdir(path)
        TemporaryFiles.shared.unregister(path)
        finished = true
    }

    /// Moves one complete file that another writer left in the staging folder to
    /// `destinationPath` (anywhere on the same file system: a batch's partitions).
    ///
    /// - Throws: `OutputError.cannotCreate`.
    public func publishFile(_ name: String, to destinationPath: String) throws {
        guard rename(path + "/" + name, destinationPath) == 0 else {
            throw OutputError(.cannotCreate, "cannot move into place: \(String(cString: strerror(errno)))", path: destinationPath)
        }
    }

    /// Removes the staging folder and what it holds; the destination is untouched.
    public func abandon() {
        guard !finished else { return }
        finished = true
        descriptors.closeAll()
        files.removeAll()
        try? FileManager.default.removeItem(atPath: path)
        TemporaryFiles.shared.unregister(path)
        if createdDestination { rmdir(destination) }
    }
}
