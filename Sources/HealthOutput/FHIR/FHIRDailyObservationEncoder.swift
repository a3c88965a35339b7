import Foundation
import HealthJSON
import HealthModel

/// Writes a day of the day table (`healthport days --format fhir`) as FHIR R4 Observations, one
/// per measure, coded as HL7's Physical Activity Implementation Guide (STU1) codes a day's
/// figures: what a clinic wants, 365 Observations per measure for a year rather than one per
/// sample.
///
/// The measures and their codes (LOINC, values in UCUM per day):
/// - steps: 41950-7 "Number of steps in 24 hour Measured", `/d`;
/// - exercise minutes (Apple's, brisk activity and above): 55411-3 "Exercise duration", `min/d`
///   (not 77592-4 or 77593-2, moderate or vigorous alone: Apple does not tell them apart);
/// - calories burned: 41979-6 "Calories burned in 24 hour Calculated", `kcal/d`, active plus
///   resting energy, written only when the day has both (either alone is not the day's burn);
/// - resting heart rate: 40443-4 "Heart rate --resting", `/min`, the day's average.
///
/// Every Observation has the category `activity` (steps, exercise and calories also the guide's
/// `PhysicalActivity`, as its `PAObservationBase` profile requires), the Patient as its `subject` (`FHIRPatient`,
/// from the header the read passed), `effectiveDateTime` the day (a date, in the
/// zone the table cut its days in), the value the table's (rounded as the table rounds it) and
/// an id derived from the person (the Patient's id), the date, the measure and the value
/// (`FHIRResourceID`), so a rerun gives the same ids and two people with the same day do not
/// share one on a server that holds many people's data. The other columns have no code here and
/// are left out, counted.
struct FHIRDailyObservationEncoder {
    /// What the days' Observations left out, by reason, with counts.
    var leftOut: [String: Int] = [:]
    /// Observations written, by LOINC code.
    var written: [String: Int] = [:]
    /// Whose days these are: every Observation's `subject` (`SummaryTableWriter.begin`).
    var patient = FHIRPatient(nil)

    struct Measure {
        let code: String
        let display: String
        let unit: String
        let ucum: String
        /// Whether the measure is one of the guide's physical activity measures, whose profiles
        /// (`PAObservationBase`) take a second category, the guide's `PhysicalActivity`.
        var physicalActivity = true
    }

    static let steps = Measure(code: "41950-7", display: "Number of steps in 24 hour Measured", unit: "steps/day", ucum: "/d")
    static let exercise = Measure(code: "55411-3", display: "Exercise duration", unit: "min/d", ucum: "min/d")
    static let calories = Measure(code: "41979-6", display: "Calories burned in 24 hour Calculated", unit: "kcal/d", ucum: "kcal/d")
    static let restingHeartRate = Measure(
        code: "40443-4", display: "Resting heart rate", unit: "beats/min", ucum: "/min", physicalActivity: false)

    /// FHIR's `activity` category, which every day's Observation has.
    static let activityCategory = FHIRCoding(
        system: "http://terminology.hl7.org/CodeSystem/observation-category", code: "activity", display: "Activity")
    /// The Physical Activity guide's own category (its `pa-temporary-codes` code system), which
    /// its activity measures carry beside `activity`.
    static let physicalActivityCategory = FHIRCoding(
        system: "http://hl7.org/fhir/us/physical-activity/CodeSystem/pa-temporary-codes", code: "PhysicalActivity", display: "Physical Activity")

    /// The columns with a code, by name; calories are the sum of two columns.
    static let columns: [String: Measure] = [
        "steps": steps, "exercise_min": exercise, "resting_heart_rate_bpm": restingHeartRate,
    ]

    /// Writes the day's Observations; returns how many.
    mutating func write(_ day: DayRow, columns: [Int], to out: OutputBuffer) -> Int {
        var written = 0
        var active: Double? = nil
        var resting: Double? = nil
        for index in columns {
            guard let value = day.values[index] else { continue }
            let name = DayColumn.all[index].name
            if name == "active_energy_kcal" { active = value; continue }
            if name == "resting_energy_kcal" { resting = value; continue }
            guard let measure = Self.columns[name] else {
                leftOut["days' \(name) (no Physical Activity IG code)", default: 0] += 1
                continue
            }
            write(measure, value: value, date: day.date, to: out)
            written += 1
        }
        if let active, let resting {
            write(Self.calories, value: active + resting, date: day.date, to: out)
            written += 1
        } else if active != nil || resting != nil {
            leftOut["days' calories with active or resting energy alone (41979-6 is the day's whole burn)", default: 0] += 1
        }
        return written
    }

    private mutating func write(_ measure: Measure, value: Double, date: CalendarDate, to out: OutputBuffer) {
        let id = FHIRResourceID.derive("Daily Observation", [patient.id, date.text, measure.code, String(value)])
        var json = JSONEmitter(out)
        FHIRJSON.beginObservation(
            id: id,
            categories: measure.physicalActivity ? [Self.activityCategory, Self.physicalActivityCategory] : [Self.activityCategory],
            codings: [FHIRCoding(system: FHIRCoding.loincSystem, code: measure.code, display: measure.display)], subject: patient, to: &json)
        json.key("effectiveDateTime")
        json.string(date.text)
        json.key("valueQuantity")
        FHIRJSON.computedQuantity(value, unit: measure.unit, ucum: measure.ucum, to: &json)
        json.endObject()
        out.append(0x0A)
        self.written[measure.code, default: 0] += 1
    }
}
