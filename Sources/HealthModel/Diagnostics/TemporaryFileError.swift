/// A temporary file healthport needs for a large run (a sort spilled to disk, the summary's
/// records, the identities of a large export) could not be made or written: an input/output
/// failure of the folder it goes in (`TMPDIR`), with that folder named, never a usage error and
/// never an internal one. A full `TMPDIR` under `summary` or `query --sort` is the person's disk,
/// not a bad option and not a bug: the fix is another folder (`TMPDIR=/var/tmp`) or space.
public struct TemporaryFileError: LocatedError {
    /// The folder the file was to go in.
    public var folder: String
    /// What failed, and the system's reason (`cannot write a temporary file for sorting: No
    /// space left on device`).
    public var message: String

    public init(folder: String, _ message: String) {
        self.folder = folder
        self.message = message
    }

    public var place: String? { folder }
}
