import Foundation

/// The key file: a small JSON document holding a `DeidentificationKey`'s secret, made once
/// (mode 0600, atomically, never over an existing file) and then only read.
///
/// ```json
/// {"format":"healthport-deidentification-key","version":1,"secret":"<base64 of 32 bytes>"}
/// ```
///
/// It holds no per-person state: each person's date shift is derived from the secret and the
/// person's key, so the file never changes after it is made and many processes (a batch's
/// workers, a Spark cluster's executors) can read one copy at once. It is what makes a
/// de-identification repeatable, and what would undo the pseudonyms' protection if it leaked:
/// keep it apart from the outputs, as a study keeps its linking key.
public enum DeidentificationKeyFile {
    static let format = "healthport-deidentification-key"
    static let version = 1

    /// The key in the file at `path`, made first when there is no file there.
    ///
    /// Creation is atomic and never replaces a file: the key is written to a private temporary
    /// file beside the destination, then linked to the destination's name (`link(2)` fails if
    /// the name exists), so two runs creating the same key file at once end up sharing one key.
    ///
    /// - Returns: the key, and whether this call created the file.
    /// - Throws: `DeidentificationKeyError`.
    public static func loadOrCreate(at path: String) throws(DeidentificationKeyError) -> (key: DeidentificationKey, created: Bool) {
        if let key = try load(at: path) { return (key, false) }
        let key = DeidentificationKey.random()
        if try create(key, at: path) { return (key, true) }
        // Another process made it first: use that one.
        guard let existing = try load(at: path) else {
            throw DeidentificationKeyError(.cannotCreate, "cannot create the key file", path: path)
        }
        return (existing, false)
    }

    /// The key in the file at `path`; `nil` when there is no file.
    ///
    /// - Throws: `DeidentificationKeyError` for a file that cannot be read or is not a key file.
    public static func load(at path: String) throws(DeidentificationKeyError) -> DeidentificationKey? {
        var status = stat()
        guard stat(path, &status) == 0 else {
            if errno == ENOENT { return nil }
            throw DeidentificationKeyError(.unreadable, "cannot read the key file: \(String(cString: strerror(errno)))", path: path)
        }
        guard status.st_mode & S_IFMT == S_IFREG, let data = FileManager.default.contents(atPath: path) else {
            throw DeidentificationKeyError(.unreadable, "cannot read the key file", path: path)
        }
        return try decode(data, path: path)
    }

    /// The file's bytes for `key`.
    static func encode(_ key: DeidentificationKey) -> Data {
        let secret = Data(key.secretBytes).base64EncodedString()
        return Data("{\"format\":\"\(format)\",\"version\":\(version),\"secret\":\"\(secret)\"}\n".utf8)
    }

    static func decode(_ data: Data, path: String) throws(DeidentificationKeyError) -> DeidentificationKey {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], object["format"] as? String == format else {
            throw DeidentificationKeyError(.invalid, "not a healthport key file", path: path)
        }
        guard object["version"] as? Int == version else {
            throw DeidentificationKeyError(.invalid, "a key file of another version (this healthport reads version \(version))", path: path)
        }
        guard let text = object["secret"] as? String, let bytes = Data(base64Encoded: text), let key = DeidentificationKey(secret: Array(bytes)) else {
            throw DeidentificationKeyError(.invalid, "the key file's secret is not \(DeidentificationKey.secretLength) bytes of base64", path: path)
        }
        return key
    }

    /// Writes `key` to a new file at `path`, mode 0600; `false` when a file appeared there first.
    private static func create(_ key: DeidentificationKey, at path: String) throws(DeidentificationKeyError) -> Bool {
        // Through URL: NSString's deletingLastPathComponent traps on a one-character name on
        // Linux (swift-corelibs-foundation): `--deidentify k` crashed.
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        var template = Array("\(folder.isEmpty ? "." : folder)/.\(name).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw DeidentificationKeyError(.cannotCreate, "cannot create the key file: \(String(cString: strerror(errno)))", path: path)
        }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        defer { unlink(temporary) }
        fchmod(fd, 0o600)
        let bytes = Array(encode(key))
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced else {
            throw DeidentificationKeyError(.cannotCreate, "cannot write the key file", path: path)
        }
        guard link(temporary, path) == 0 else {
            if errno == EEXIST { return false }
            throw DeidentificationKeyError(.cannotCreate, "cannot create the key file: \(String(cString: strerror(errno)))", path: path)
        }
        return true
    }
}
