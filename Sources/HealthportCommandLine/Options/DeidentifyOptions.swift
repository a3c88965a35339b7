import ArgumentParser
import HealthDeidentify
import HealthQuery

/// `--deidentify KEYFILE`, for every command that writes objects: the face reads (or makes) the
/// key file and hands the run a `Deidentification`; the run's gate applies it.
package struct DeidentifyOptions: ParsableArguments {
    package init() {}

    @Option(
        name: .long,
        help: ArgumentHelp(
            "De-identify what is written with the key in this file, made (mode 0600) when absent: dates shifted by whole weeks per person, names replaced by keyed pseudonyms, identifiers, free text and routes removed; see healthport-convert(1).",
            valueName: "keyfile"),
        completion: .file())
    package var deidentify: String? = nil

    /// Sets the query's de-identification from the key file, saying on standard error when the
    /// file was made (the person must keep it: it is what repeats the shift next time).
    package func apply(to query: inout ObjectQuery, log: Diagnostics) throws {
        guard let path = deidentify else { return }
        let (key, created) = try DeidentificationKeyFile.loadOrCreate(at: path)
        if created { log.note("made the key file \(path) (keep it apart from the outputs: it repeats the shift and the pseudonyms)") }
        query.deidentification = Deidentification(key: key, keyFile: path)
    }
}
