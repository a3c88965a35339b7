import Foundation
import HealthDeidentify
import HealthOutput
import HealthQuery

/// Writes a de-identified output's manifest (`DeidentificationManifest`) beside it, atomically
/// and mode 0600 like every output: inside a folder (CSV, Parquet or FHIR folders, lakes),
/// beside a file, nowhere for standard output (the face can say where the run's options are).
enum DeidentificationManifestFile {
    /// The options a manifest records of a run's query and output: what was selected and how it
    /// was written, never a value that the de-identification hides (dates are recorded only as
    /// whether a window was given: its bounds are real dates).
    static func options(query: ObjectQuery, format: ObjectFormat, extra: [String: String] = [:]) -> [String: String] {
        var options = extra
        options["format"] = format.rawValue
        if let types = query.types { options["types"] = types.sorted().joined(separator: ",") }
        if let policy = query.policy { options["policy"] = policy.consumer.name }
        if query.dateWindow != nil { options["dateWindow"] = "given (its bounds are original dates and are not recorded)" }
        if query.predicate != nil { options["predicate"] = "given (not recorded: it may quote original values)" }
        if !query.sources.isEmpty || !query.devices.isEmpty || !query.uuids.isEmpty {
            options["selection"] = "sources, devices or uuids selected (not recorded: they name originals)"
        }
        if let unit = query.outputUnit { options["unit"] = unit.text }
        return options
    }

    /// Writes the manifest for `output`; does nothing without de-identification or for
    /// standard output.
    ///
    /// - Throws: `OutputError.cannotCreate`, `.ioError`.
    static func write(
        query: ObjectQuery, format: ObjectFormat, output: String, isFolder: Bool, healthportVersion: String,
        extra: [String: String] = [:]
    ) throws {
        guard let deidentification = query.deidentification,
            let path = DeidentificationManifest.path(forOutput: output, isFolder: isFolder)
        else { return }
        let manifest = DeidentificationManifest(
            key: deidentification.key, healthportVersion: healthportVersion, options: options(query: query, format: format, extra: extra))
        let file = try AtomicFile(destination: path)
        file.buffer.append(contentsOf: Array(try manifest.encoded()))
        try file.commit()
    }
}
