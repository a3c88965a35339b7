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
    /// An exercise session's own type code (`exercise_type`), on its workout, or a planned
    /// exercise session's.
    public static let exerciseType = "HealthConnectExerciseType"
    /// A session's title and notes.
    public static let title = "HealthConnectTitle"
    public static let notes = "HealthConnectNotes"
    /// A lap's length (`lap_length`, in metres), on its workout event.
    public static let lapLength = "HealthConnectLapLength"
    /// An exercise segment's type code (`segment_type`, the platform's `ExerciseSegmentType`:
    /// 0 unknown, 1 barbell shoulder press, … 66 rest, 67 pause), on its workout event:
    /// HealthKit's segment has no type.
    public static let exerciseSegmentType = "HealthConnectExerciseSegmentType"
    /// An exercise segment's repetitions (`repetitions_count`), on its workout event.
    public static let repetitions = "HealthConnectRepetitions"

    // Cycle tracking (`CycleTracking`): each record's own code, kept beside HealthKit's value
    // for it, since some codes share a value or have none.

    /// A menstruation flow's code (`flow`: 0 unknown, 1 light, 2 medium, 3 heavy).
    public static let menstruationFlow = "HealthConnectMenstruationFlow"
    /// An ovulation test's code (`result`: 0 inconclusive, 1 positive, 2 high, 3 negative).
    public static let ovulationTestResult = "HealthConnectOvulationTestResult"
    /// A cervical mucus record's appearance (`appearance`: 0 unknown, 1 dry, 2 sticky, 3 creamy,
    /// 4 watery, 5 egg white, 6 unusual).
    public static let cervicalMucusAppearance = "HealthConnectCervicalMucusAppearance"
    /// A cervical mucus record's sensation (`sensation`: 0 unknown, 1 light, 2 medium, 3 heavy),
    /// which HealthKit has no place for.
    public static let cervicalMucusSensation = "HealthConnectCervicalMucusSensation"
    /// A sexual activity's protection code (`protection_used`: 0 unknown, 1 protected,
    /// 2 unprotected).
    public static let protectionUsed = "HealthConnectProtectionUsed"

    // How a measurement was taken (`MeasurementContext`): the record's own codes, beside
    // HealthKit's key where one means the same.

    /// Where a measurement was taken (`measurement_location`), in its record type's own codes:
    /// a temperature's 0 unknown, 1 armpit, 2 finger, 3 forehead, 4 mouth, 5 rectum, 6 temporal
    /// artery, 7 toe, 8 ear, 9 wrist, 10 vagina; a blood pressure's 0 unknown, 1 left wrist,
    /// 2 right wrist, 3 left upper arm, 4 right upper arm; a skin temperature's 0 unknown,
    /// 1 finger, 2 toe, 3 wrist.
    public static let measurementLocation = "HealthConnectMeasurementLocation"
    /// A blood pressure's body position (`body_position`: 0 unknown, 1 standing up, 2 sitting
    /// down, 3 lying down, 4 reclining).
    public static let bodyPosition = "HealthConnectBodyPosition"
    /// A blood glucose's specimen (`specimen_source`: 0 unknown, 1 interstitial fluid,
    /// 2 capillary blood, 3 plasma, 4 serum, 5 tears, 6 whole blood).
    public static let specimenSource = "HealthConnectSpecimenSource"
    /// A blood glucose's relation to a meal (`relation_to_meal`: 0 unknown, 1 general,
    /// 2 fasting, 3 before a meal, 4 after a meal), beside HealthKit's `HKBloodGlucoseMealTime`
    /// for the last two.
    public static let relationToMeal = "HealthConnectRelationToMeal"

    /// A skin temperature record's baseline (`baseline`, a quantity in degC), on each of its
    /// deltas, which are differences from it (`SkinTemperature`).
    public static let skinTemperatureBaseline = "HealthConnectSkinTemperatureBaseline"

    /// Whether a planned exercise session was planned at a time ("1") or only on a day ("0";
    /// its interval is then the app's choice), from `has_explicit_time`.
    public static let hasExplicitTime = "HealthConnectHasExplicitTime"
    /// The uuid of the exercise session (the workout, in the model) that completed a planned
    /// exercise session (`completed_session_id`).
    public static let completedExerciseSession = "HealthConnectCompletedExerciseSession"

    /// A mindfulness session's type code (`type`: 0 unknown, 1 meditation, 2 other, 3 breathing,
    /// 4 music, 5 movement, 6 unguided), on its `HKCategoryTypeIdentifierMindfulSession` sample:
    /// HealthKit's mindful session has no kind.
    public static let mindfulnessSessionType = "HealthConnectMindfulnessSessionType"

    /// A meal's type (`meal_type`: 0 unknown, 1 breakfast, 2 lunch, 3 dinner, 4 snack), on a
    /// food and its samples (`Nutrition`) and on a blood glucose.
    public static let mealType = "HealthConnectMealType"
}
