import HealthModel

/// The internal DTD subset healthport writes into an `export.xml`: Apple's Export Version 14
/// (docs/reference/export-format.md §2.2), well-formed, with the content models widened to what real exports
/// hold (`WorkoutActivity` under `Workout`, events and statistics under activities, legacy
/// `Location` under routes), so that a validating reader accepts what healthport writes.
///
/// It declares no entities and no defaults: dropping it changes nothing, as in Apple's exports.
enum ExportDTD {
    static let version = 14

    /// `RightEye` and `LeftEye` take the same attributes: each of a lens's fields, in DTD order
    /// (`LensSpecification.fields`), and its unit, aligned as Apple's DTD aligns them. Built from
    /// the model's list, so the two eyes and the fields healthport writes cannot drift apart.
    private static func eyeDeclaration(_ element: String) -> String {
        let names = LensSpecification.fields.flatMap { [$0.attribute, $0.attribute + "Unit"] }
        let attributes = names.map { "  " + $0 + String(repeating: " ", count: max(1, 13 - $0.count)) + "CDATA #IMPLIED" }
        return "<!ELEMENT \(element) EMPTY>\n<!ATTLIST \(element)\n" + attributes.joined(separator: "\n") + ">"
    }

    static let text = """
<!-- HealthKit Export Version: 14 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT ExportDate EMPTY>
<!ATTLIST ExportDate
  value CDATA #REQUIRED
>
<!ELEMENT Me EMPTY>
<!ATTLIST Me
  HKCharacteristicTypeIdentifierDateOfBirth                 CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBiologicalSex               CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBloodType                   CDATA #REQUIRED
  HKCharacteristicTypeIdentifierFitzpatrickSkinType         CDATA #REQUIRED
  HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse CDATA #REQUIRED
>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
<!ATTLIST Record
  type          CDATA #REQUIRED
  unit          CDATA #IMPLIED
  value         CDATA #IMPLIED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!-- Note: Any Records that appear as children of a correlation also appear as top-level records in this document. -->
<!ELEMENT Correlation ((MetadataEntry|Record)*)>
<!ATTLIST Correlation
  type          CDATA #REQUIRED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutActivity|WorkoutRoute|WorkoutStatistics)*)>
<!ATTLIST Workout
  workoutActivityType   CDATA #REQUIRED
  duration              CDATA #IMPLIED
  durationUnit          CDATA #IMPLIED
  totalDistance         CDATA #IMPLIED
  totalDistanceUnit     CDATA #IMPLIED
  totalEnergyBurned     CDATA #IMPLIED
  totalEnergyBurnedUnit CDATA #IMPLIED
  sourceName            CDATA #REQUIRED
  sourceVersion         CDATA #IMPLIED
  device                CDATA #IMPLIED
  creationDate          CDATA #IMPLIED
  startDate             CDATA #REQUIRED
  endDate               CDATA #REQUIRED
>
<!ELEMENT WorkoutActivity ((MetadataEntry|WorkoutEvent|WorkoutStatistics)*)>
<!ATTLIST WorkoutActivity
  uuid         CDATA #REQUIRED
  startDate    CDATA #REQUIRED
  endDate      CDATA #IMPLIED
  duration     CDATA #IMPLIED
  durationUnit CDATA #IMPLIED
>
<!ELEMENT WorkoutEvent ((MetadataEntry)*)>
<!ATTLIST WorkoutEvent
  type         CDATA #REQUIRED
  date         CDATA #REQUIRED
  duration     CDATA #IMPLIED
  durationUnit CDATA #IMPLIED
>
<!ELEMENT WorkoutStatistics EMPTY>
<!ATTLIST WorkoutStatistics
  type      CDATA #REQUIRED
  startDate CDATA #REQUIRED
  endDate   CDATA #REQUIRED
  average   CDATA #IMPLIED
  minimum   CDATA #IMPLIED
  maximum   CDATA #IMPLIED
  sum       CDATA #IMPLIED
  unit      CDATA #IMPLIED
>
<!ELEMENT WorkoutRoute ((MetadataEntry|FileReference|Location)*)>
<!ATTLIST WorkoutRoute
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT FileReference EMPTY>
<!ATTLIST FileReference
  path CDATA #REQUIRED
>
<!ELEMENT Location EMPTY>
<!ATTLIST Location
  date               CDATA #REQUIRED
  latitude           CDATA #REQUIRED
  longitude          CDATA #REQUIRED
  altitude           CDATA #IMPLIED
  horizontalAccuracy CDATA #IMPLIED
  verticalAccuracy   CDATA #IMPLIED
  course             CDATA #IMPLIED
  speed              CDATA #IMPLIED
>
<!ELEMENT ActivitySummary EMPTY>
<!ATTLIST ActivitySummary
  dateComponents         CDATA #IMPLIED
  activeEnergyBurned     CDATA #IMPLIED
  activeEnergyBurnedGoal CDATA #IMPLIED
  activeEnergyBurnedUnit CDATA #IMPLIED
  appleMoveTime          CDATA #IMPLIED
  appleMoveTimeGoal      CDATA #IMPLIED
  appleExerciseTime      CDATA #IMPLIED
  appleExerciseTimeGoal  CDATA #IMPLIED
  appleStandHours        CDATA #IMPLIED
  appleStandHoursGoal    CDATA #IMPLIED
>
<!ELEMENT MetadataEntry EMPTY>
<!ATTLIST MetadataEntry
  key   CDATA #REQUIRED
  value CDATA #REQUIRED
>
<!-- Note: Heart Rate Variability records captured by Apple Watch may include an associated list of instantaneous beats-per-minute readings. -->
<!ELEMENT HeartRateVariabilityMetadataList (InstantaneousBeatsPerMinute*)>
<!ELEMENT InstantaneousBeatsPerMinute EMPTY>
<!ATTLIST InstantaneousBeatsPerMinute
  bpm  CDATA #REQUIRED
  time CDATA #REQUIRED
>
<!ELEMENT ClinicalRecord EMPTY>
<!ATTLIST ClinicalRecord
  type             CDATA #REQUIRED
  identifier       CDATA #REQUIRED
  sourceName       CDATA #REQUIRED
  sourceURL        CDATA #REQUIRED
  fhirVersion      CDATA #REQUIRED
  receivedDate     CDATA #REQUIRED
  resourceFilePath CDATA #REQUIRED
>
<!ELEMENT Audiogram ((MetadataEntry|SensitivityPoint)*)>
<!ATTLIST Audiogram
  type          CDATA #REQUIRED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT SensitivityPoint EMPTY>
<!ATTLIST SensitivityPoint
  frequencyValue                  CDATA #REQUIRED
  frequencyUnit                   CDATA #REQUIRED
  leftEarValue                    CDATA #IMPLIED
  leftEarUnit                     CDATA #IMPLIED
  leftEarMasked                   CDATA #IMPLIED
  leftEarClampingRangeLowerBound  CDATA #IMPLIED
  leftEarClampingRangeUpperBound  CDATA #IMPLIED
  rightEarValue                   CDATA #IMPLIED
  rightEarUnit                    CDATA #IMPLIED
  rightEarMasked                  CDATA #IMPLIED
  rightEarClampingRangeLowerBound CDATA #IMPLIED
  rightEarClampingRangeUpperBound CDATA #IMPLIED
>
<!ELEMENT VisionPrescription ((RightEye|LeftEye|Attachment|MetadataEntry)*)>
<!ATTLIST VisionPrescription
  type           CDATA #REQUIRED
  dateIssued     CDATA #REQUIRED
  expirationDate CDATA #IMPLIED
  brand          CDATA #IMPLIED
>
\(eyeDeclaration("RightEye"))
\(eyeDeclaration("LeftEye"))
<!ELEMENT Attachment EMPTY>
<!ATTLIST Attachment
  identifier CDATA #IMPLIED
>
"""
}
