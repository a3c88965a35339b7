import Foundation

/// What a de-identified output was made with, written beside it (`_deidentification.json` in a
/// folder or a lake, `X.deidentification.json` beside a file `X`): the method and its version,
/// the rules, the options of the run, and which key was used, by its identifier. Never the key,
/// and never a person's shift: either would undo the protection.
///
/// Deterministic (no time of writing), so two runs with the same options and key write the same
/// bytes: a lake made by a Spark cluster and one made on one machine are equal file for file.
public struct DeidentificationManifest: Codable, Sendable, Equatable {
    /// The file's name inside a folder (the underscore keeps it out of Hive-style discovery, as
    /// `_manifest.json`).
    public static let folderFileName = "_deidentification.json"
    /// The suffix of the file beside a file output.
    public static let fileSuffix = ".deidentification.json"

    public var method = Deidentification.method
    public var version = Deidentification.version
    public var healthportVersion: String
    /// `DeidentificationKey.identifier`: which key, not the key.
    public var keyIdentifier: String
    /// The run's options, as the face names them (format, partition, types, policy, …).
    public var options: [String: String]
    /// Each rule, in words, as healthport-formats(5) states it.
    public var rules: [String: String]

    public init(key: DeidentificationKey, healthportVersion: String, options: [String: String]) {
        self.healthportVersion = healthportVersion
        self.keyIdentifier = key.identifier
        self.options = options
        self.rules = Self.rules
    }

    public static let rules: [String: String] = [
        "dates":
            "every date moved into the past by one whole number of weeks per person (\(DateShift.minimumWeeks) to \(DateShift.maximumWeeks)), derived from the key and the person, and written in UTC (the printed offsets would date the shift); UTC times of day, weekdays, durations and order kept",
        "uuids": "re-derived with the key (SipHash-2-4-128 of the original uuid): stable for one key, unlinkable without it",
        "sources": "source names replaced by keyed pseudonyms (HMAC-SHA256), except the Health app's name; source versions, product types and operating system versions removed",
        "devices":
            "device names replaced by keyed pseudonyms; localIdentifier (serial), UDI device identifier and creation date removed; hardware, firmware and software versions removed; manufacturer and model kept",
        "metadata": "only HealthKit's numeric and quantity keys kept (HKMetadataKeySyncVersion removed); every string value removed",
        "characteristics":
            "only when a policy grants them; date of birth cut to its (shifted) year, 90+ for a person 90 or older; unknown characteristics removed",
        "routes": "workout routes removed with their points and files",
        "removed": "clinical records, elements healthport does not model, unknown attributes, ECG recordings (files, and in FHIR their voltages and notes), the CDA document, the export format's version, vision prescriptions' brand and attachments",
        "personKeys": "in a lake, person keys taken from file names replaced by keyed pseudonyms; keys given explicitly for each input kept as given",
    ]

    /// The manifest's bytes: pretty-printed JSON with sorted keys and a final newline.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        return data
    }

    /// Where the manifest of an output goes: inside a folder, beside a file; `nil` for standard
    /// output, which has nothing beside it.
    public static func path(forOutput output: String, isFolder: Bool) -> String? {
        guard output != "-" else { return nil }
        if isFolder { return output + "/" + folderFileName }
        return output + fileSuffix
    }
}
