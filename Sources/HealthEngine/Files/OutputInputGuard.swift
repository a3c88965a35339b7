import Foundation
import HealthDeidentify
import HealthQuery

/// Refuses an output that would replace one of the run's inputs, before anything is opened for
/// writing: `convert x/export.xml --format export --output x/export.xml` (or a zip, or
/// `query --store s.sqlite --output s.sqlite`) silently replaced the person's export or store.
///
/// Files are compared by device and inode (so a second name, a symbolic link or `./` does not
/// hide the match); a folder output (CSV, partitions) may not be an input nor contain one, nor
/// lie inside an input folder. The store's own companions (`-wal`, `-shm`) count as the store.
enum OutputInputGuard {
    /// `check(outputs:inputs:)` with what the query reads besides the input: the
    /// de-identification key's file is an input of the run, and the manifest written beside a
    /// de-identified file output (`X.deidentification.json`) one of its outputs.
    static func check(outputs: [String?], inputs: [String], query: ObjectQuery) throws {
        var outputs = outputs
        var inputs = inputs
        if let deidentification = query.deidentification {
            if let keyFile = deidentification.keyFile { inputs.append(keyFile) }
            for case let output? in outputs {
                if let manifest = DeidentificationManifest.path(forOutput: output, isFolder: false) { outputs.append(manifest) }
            }
        }
        try check(outputs: outputs, inputs: inputs)
    }

    /// - Parameters:
    ///   - outputs: where the run writes (`-` and `nil` are skipped).
    ///   - inputs: what it reads (`-` is skipped).
    static func check(outputs: [String?], inputs: [String]) throws {
        let inputPaths = inputs.filter { $0 != "-" && !$0.isEmpty }
        for case let output? in outputs where output != "-" && !output.isEmpty {
            let outputURL = URL(fileURLWithPath: output).standardizedFileURL.resolvingSymlinksInPath()
            for input in inputPaths {
                let inputURL = URL(fileURLWithPath: input).standardizedFileURL.resolvingSymlinksInPath()
                var candidates = [input]
                if input.hasSuffix(".sqlite") || FileManager.default.fileExists(atPath: input + "-wal") {
                    candidates += [input + "-wal", input + "-shm"]
                }
                // The same node, or the same name (a store's `-wal` may not exist yet).
                let sameFile = candidates.contains {
                    sameNode(output, $0) || URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().path == outputURL.path
                }
                let contains = isInside(inputURL.path, outputURL.path)
                let inside = isDirectory(inputURL.path) && isInside(outputURL.path, inputURL.path)
                if sameFile || contains || inside {
                    throw RunError(
                        .invalidRequest,
                        "the output would replace an input (\(input)); write it somewhere else", location: output)
                }
            }
        }
    }

    /// Whether both paths name the same existing file (device and inode).
    static func sameNode(_ a: String, _ b: String) -> Bool {
        var first = stat()
        var second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }

    /// Whether `path` is `folder` or lies inside it (both resolved).
    static func isInside(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }
}
