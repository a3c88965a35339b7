/// The metadata keys under which a Health Connect record keeps what HealthKit has no property
/// for. HealthKit's own keys are used where one means the same (`HKWasUserEntered` for a
/// manual entry, `HKIndoorWorkout`).
public enum HealthConnectMetadataKeys {
    /// `recording_method`: 0 unknown, 1 actively recorded, 2 automatically recorded, 3 manual entry.
    public static let recordingMethod = "HealthConnectRecordingMethod"
    /// `client_record_id`: the writing app's own id for the record.
    public static let clientRecordID = "HealthConnectClientRecordID"
    /// `last_modified_time`: when the record was last written, which breaks ties between
    /// records of one app in Health Connect's totals.
    public static let lastModifiedDate = "HealthConnectLastModifiedDate"
    /// A sleep stage's own code (`sleep_stages_table.stage_type`).
    public static let sleepStage = "HealthConnectSleepStage"
    /// An exercise session's own type code (`exercise_type`).
    public static let exerciseType = "HealthConnectExerciseType"
    /// A session's title and notes.
    public static let title = "HealthConnectTitle"
    public static let notes = "HealthConnectNotes"
    /// A lap's length (`lap_length`, in metres), on its workout event.
    public static let lapLength = "HealthConnectLapLength"
}
