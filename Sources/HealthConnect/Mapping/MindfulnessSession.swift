import HealthModel

/// Health Connect's mindfulness session (`mindfulness_session_record_table`, database version
/// 14) as HealthKit's mindful session: a `HKCategoryTypeIdentifierMindfulSession` sample over
/// the session, whose value is not applicable, as Apple's exports write one.
///
/// HealthKit's mindful session is the same thing (a span of meditation, breathing or the like,
/// counted as time), but says nothing of its kind; the record's own type code (the platform's
/// `MindfulnessSessionRecord.MindfulnessSessionType`: 0 unknown, 1 meditation, 2 other,
/// 3 breathing, 4 music, 5 movement, 6 unguided) is kept in metadata, a code newer than this
/// list as it is. The title and notes are free text the person or the app wrote, kept as an
/// exercise session's are (`HealthConnectTitle`, `HealthConnectNotes`), and removed by
/// de-identification as every text value is.
enum MindfulnessSession {
    static let typeIdentifier = "HKCategoryTypeIdentifierMindfulSession"

    /// The table's own columns after every record's, in the order the reader selects them: the
    /// type code, then the title and the notes side by side (`TableReader` reads the two
    /// together).
    static let columns = ["type", "title", "notes"]

    /// The session's type code under `HealthConnectMindfulnessSessionType`, as text; none for
    /// NULL, which says nothing.
    static func metadata(type code: Int64?) -> [MetadataEntry] {
        code.map { [MetadataEntry(key: HealthConnectMetadataKeys.mindfulnessSessionType, value: .string(String($0)))] } ?? []
    }
}
