import HealthModel

/// Health Connect's planned exercise session (`planned_exercise_session_record_table`, database
/// version 12): a training plan's session, what the person means to do and when, which may lie
/// in the future. It is a plan, not a measurement, so it is neither a workout nor any sample
/// HealthKit has (HealthKit's scheduled workouts live in WorkoutKit, outside its store): it
/// becomes a category sample of Health Connect's own, `HealthConnectPlannedExerciseSession`,
/// over the planned interval, its value not applicable, and a day counts plans, never their
/// time (`CategoryDayMeasure`: an hour planned is no hour exercised).
///
/// Its metadata says what the plan is: the exercise type's code (`HealthConnectExerciseType`,
/// the same `ExerciseSessionType` codes a workout keeps), its title and notes as a session's
/// (free text, removed by de-identification), whether it was planned at a time or only on a day
/// (`has_explicit_time`: "1" or "0"; a plan for a day has an interval the app chose), and the
/// exercise session that carried it out (`completed_session_id`, that session's uuid: the uuid
/// of its workout in the model).
///
/// Its blocks, steps and goals (`planned_exercise_session_blocks_table`, `…_steps_table`,
/// `…_goals_table`: repetitions, descriptions, goals as big-endian bytes) are not read.
enum PlannedExerciseSession {
    static let typeIdentifier = HealthConnectTypes.plannedExerciseSession

    /// The table's own columns after every record's, in the order the reader selects them: the
    /// exercise type, the title and the notes side by side (`TableReader` reads the two
    /// together), whether the time was given, and the completed session's uuid.
    static let columns = ["exercise_type", "title", "notes", "has_explicit_time", "completed_session_id"]

    /// The plan's metadata: its exercise type's code and whether it was planned at a time (none
    /// for NULL, which says nothing), and the uuid of the session that completed it, if any.
    static func metadata(exerciseType: Int64?, hasExplicitTime: Int64?, completedSession: ObjectUUID?) -> [MetadataEntry] {
        var entries: [MetadataEntry] = []
        if let exerciseType {
            entries.append(MetadataEntry(key: HealthConnectMetadataKeys.exerciseType, value: .string(String(exerciseType))))
        }
        // AOSP reads any value but 0 as true.
        if let hasExplicitTime {
            entries.append(MetadataEntry(key: HealthConnectMetadataKeys.hasExplicitTime, value: .string(hasExplicitTime == 0 ? "0" : "1")))
        }
        if let completedSession {
            entries.append(MetadataEntry(key: HealthConnectMetadataKeys.completedExerciseSession, value: .string(completedSession.uuidString)))
        }
        return entries
    }
}
