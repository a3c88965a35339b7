import HealthModel

/// The internal DTD subset healthport writes into an `export.xml`: Apple's Export Version 14
/// (docs/reference/export-format.md §2.2), well-formed, with the content models widened to what real exports
/// hold (`WorkoutActivity` under `Workout`, events and statistics under activities, legacy
/// `Location` under routes), so that a validating reader accepts what healthport writes.
///
/// It declares no entities and no defaults: dropping it changes nothing, as in Apple's exports.
enum ExportDTD {
    static let version = 14

    /// An attribute of an element, and whether every such element has it.
    private enum Attribute {
        case required(String)
        case implied(String)

        var name: String {
            switch self {
            case .required(let name), .implied(let name): return name
            }
        }

        var defaultDeclaration: String {
            switch self {
            case .required: return "#REQUIRED"
            case .implied: return "#IMPLIED"
            }
        }
    }

    /// The attributes every sample element (`Record`, `Correlation`, `Workout`, `WorkoutRoute`,
    /// `Audiogram`) ends with, in Apple's order: declared once, so the five cannot drift apart.
    private static let sampleAttributes: [Attribute] = [
        .required("sourceName"), .implied("sourceVersion"), .implied("device"), .implied("creationDate"),
        .required("startDate"), .required("endDate"),
    ]

    /// `<!ATTLIST element …>`: one attribute a line, the types aligned one space past the
    /// longest name, as Apple's DTD aligns them, and the closing `>` on a line of its own.
    private static func attributeList(_ element: String, _ attributes: [Attribute]) -> String {
        let width = (attributes.map(\.name.count).max() ?? 0) + 1
        let lines = attributes.map {
            "  " + $0.name + String(repeating: " ", count: width - $0.name.count) + "CDATA " + $0.defaultDeclaration
        }
        return "<!ATTLIST \(element)\n" + lines.joined(separator: "\n") + "\n>"
    }

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
\(attributeList("HealthData", [.required("locale")]))
<!ELEMENT ExportDate EMPTY>
\(attributeList("ExportDate", [.required("value")]))
<!ELEMENT Me EMPTY>
\(attributeList("Me", Characteristics.fields.map { .required($0.identifier) }))
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
\(attributeList("Record", [.required("type"), .implied("unit"), .implied("value")] + sampleAttributes))
<!-- Note: Any Records that appear as children of a correlation also appear as top-level records in this document. -->
<!ELEMENT Correlation ((MetadataEntry|Record)*)>
\(attributeList("Correlation", [.required("type")] + sampleAttributes))
<!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutActivity|WorkoutRoute|WorkoutStatistics)*)>
\(attributeList("Workout", [.required("workoutActivityType"), .implied("duration"), .implied("durationUnit"), .implied("totalDistance"), .implied("totalDistanceUnit"), .implied("totalEnergyBurned"), .implied("totalEnergyBurnedUnit")] + sampleAttributes))
<!ELEMENT WorkoutActivity ((MetadataEntry|WorkoutEvent|WorkoutStatistics)*)>
\(attributeList("WorkoutActivity", [.required("uuid"), .required("startDate"), .implied("endDate"), .implied("duration"), .implied("durationUnit")]))
<!ELEMENT WorkoutEvent ((MetadataEntry)*)>
\(attributeList("WorkoutEvent", [.required("type"), .required("date"), .implied("duration"), .implied("durationUnit")]))
<!ELEMENT WorkoutStatistics EMPTY>
\(attributeList("WorkoutStatistics", [.required("type"), .required("startDate"), .required("endDate"), .implied("average"), .implied("minimum"), .implied("maximum"), .implied("sum"), .implied("unit")]))
<!ELEMENT WorkoutRoute ((MetadataEntry|FileReference|Location)*)>
\(attributeList("WorkoutRoute", sampleAttributes))
<!ELEMENT FileReference EMPTY>
\(attributeList("FileReference", [.required("path")]))
<!ELEMENT Location EMPTY>
\(attributeList("Location", [.required("date"), .required("latitude"), .required("longitude"), .implied("altitude"), .implied("horizontalAccuracy"), .implied("verticalAccuracy"), .implied("course"), .implied("speed")]))
<!ELEMENT ActivitySummary EMPTY>
\(attributeList("ActivitySummary", [.implied("dateComponents"), .implied("activeEnergyBurned"), .implied("activeEnergyBurnedGoal"), .implied("activeEnergyBurnedUnit"), .implied("appleMoveTime"), .implied("appleMoveTimeGoal"), .implied("appleExerciseTime"), .implied("appleExerciseTimeGoal"), .implied("appleStandHours"), .implied("appleStandHoursGoal")]))
<!ELEMENT MetadataEntry EMPTY>
\(attributeList("MetadataEntry", [.required("key"), .required("value")]))
<!-- Note: Heart Rate Variability records captured by Apple Watch may include an associated list of instantaneous beats-per-minute readings. -->
<!ELEMENT HeartRateVariabilityMetadataList (InstantaneousBeatsPerMinute*)>
<!ELEMENT InstantaneousBeatsPerMinute EMPTY>
\(attributeList("InstantaneousBeatsPerMinute", [.required("bpm"), .required("time")]))
<!ELEMENT ClinicalRecord EMPTY>
\(attributeList("ClinicalRecord", [.required("type"), .required("identifier"), .required("sourceName"), .required("sourceURL"), .required("fhirVersion"), .required("receivedDate"), .required("resourceFilePath")]))
<!ELEMENT Audiogram ((MetadataEntry|SensitivityPoint)*)>
\(attributeList("Audiogram", [.required("type")] + sampleAttributes))
<!ELEMENT SensitivityPoint EMPTY>
\(attributeList("SensitivityPoint", [.required("frequencyValue"), .required("frequencyUnit"), .implied("leftEarValue"), .implied("leftEarUnit"), .implied("leftEarMasked"), .implied("leftEarClampingRangeLowerBound"), .implied("leftEarClampingRangeUpperBound"), .implied("rightEarValue"), .implied("rightEarUnit"), .implied("rightEarMasked"), .implied("rightEarClampingRangeLowerBound"), .implied("rightEarClampingRangeUpperBound")]))
<!ELEMENT VisionPrescription ((RightEye|LeftEye|Attachment|MetadataEntry)*)>
\(attributeList("VisionPrescription", [.required("type"), .required("dateIssued"), .implied("expirationDate"), .implied("brand")]))
\(eyeDeclaration("RightEye"))
\(eyeDeclaration("LeftEye"))
<!ELEMENT Attachment EMPTY>
\(attributeList("Attachment", [.implied("identifier")]))
"""
}
