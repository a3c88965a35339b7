import Foundation
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
    /// file was made (the person must keep it: it is what repeats the shift next time), and
    /// warning when others may read it. A key made for a run that then fails is removed: it
    /// was never used, and a later run would otherwise take it for the study's key.
    package func apply(to query: inout ObjectQuery, log: Diagnostics) throws {
        guard let path = deidentify else { return }
        let (key, created) = try DeidentificationKeyFile.loadOrCreate(at: path)
        if created {
            log.note("made the key file \(path) (keep it apart from the outputs: it repeats the shift and the pseudonyms)")
            log.removeOnFailure(path)
        } else {
            var status = stat()
            if stat(path, &status) == 0, status.st_mode & 0o077 != 0 {
                log.warning(
                    "the key file can be read by others (mode \(String(status.st_mode & 0o777, radix: 8))): whoever reads it can undo the pseudonyms; chmod 600 it",
                    at: path)
            }
        }
        query.deidentification = Deidentification(key: key, keyFile: path)
    }
}
