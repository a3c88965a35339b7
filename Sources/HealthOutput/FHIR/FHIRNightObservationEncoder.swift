import HealthJSON
import HealthModel

/// Writes a night of `healthport sleep` (`--format fhir`) as one FHIR R4 Observation, its stages
/// as components: what a clinic wants from a night, where `convert --format fhir` gives one
/// Observation per stage sample.
///
/// The Physical Activity IG has no sleep profile, so the night is coded as HealthKitOnFHIR codes
/// sleep: the Observation's code is `HKCategoryTypeIdentifierSleepAnalysis` in HealthKit's code
/// system (`FHIRCodeTable`), each component's code the `HKCategoryValueSleepAnalysis` case it
/// sums (in bed, asleep unspecified, core, deep, REM, awake), with HealthKitOnFHIR's system and
/// display. The subject is the Patient (`FHIRPatient`, from the header the read passed). The
/// value is the time asleep and each component a duration, in seconds (UCUM `s`),
/// as the sleep table gives them; `effectivePeriod` runs from sleep onset to final awakening. A
/// night with time in bed only has no onset and is left out, counted. The id is derived from the
/// person (the Patient's id) and the night (its date, times and sources), so a rerun gives the
/// same ids and two people's identical nights do not share one.
struct FHIRNightObservationEncoder {
    /// What was left out, by reason, with counts.
    var leftOut: [String: Int] = [:]
    /// Observations written.
    var written = 0
    /// Whose nights these are: every Observation's `subject` (`SummaryTableWriter.begin`).
    var patient = FHIRPatient(nil)

    private static let mapping = FHIRMapping.healthKitOnFHIR
    private static let sleepType = "HKCategoryTypeIdentifierSleepAnalysis"

    /// Writes the night's Observation; `false` when it has none.
    mutating func write(_ night: SleepNight, to out: OutputBuffer) -> Bool {
        guard let start = night.sleepStart, let end = night.sleepEnd else {
            leftOut["nights with time in bed only (no sleep onset to begin the Observation's period)", default: 0] += 1
            return false
        }
        let table = Self.mapping.categoryTypes[Self.sleepType]
        let id = FHIRResourceID.derive(
            "Night Observation",
            [patient.id, night.night.text, "\(start.secondsSince1970) \(start.utcOffsetSeconds)", "\(end.secondsSince1970) \(end.utcOffsetSeconds)",
             night.sources.joined(separator: "\n")])
        var json = JSONEmitter(out)
        FHIRJSON.beginObservation(
            id: id, categories: table?.categories ?? [], codings: table?.codings ?? [.healthKit(Self.sleepType)], subject: patient, to: &json)
        json.key("effectivePeriod")
        json.beginObject()
        json.key("start")
        json.date(start)
        json.key("end")
        json.date(end)
        json.endObject()
        json.key("valueQuantity")
        Self.seconds(night.asleep, to: &json)
        json.key("component")
        json.beginArray()
        // HKCategoryValueSleepAnalysis's raw values: 0 in bed, 1 asleep unspecified, 2 awake,
        // 3 core, 4 deep, 5 REM.
        let stages: [(Int, Double?)] = [
            (0, night.inBed), (1, night.asleepUnspecified), (3, night.asleepCore), (4, night.asleepDeep), (5, night.asleepREM),
            (2, night.awake),
        ]
        let values = Self.mapping.valueEnums["HKCategoryValueSleepAnalysis"]
        for (raw, duration) in stages {
            guard let duration, let coding = values?.coding(rawValue: raw) else { continue }
            FHIRJSON.component([coding], valueKey: "valueQuantity", to: &json) { json in
                Self.seconds(duration, to: &json)
            }
        }
        json.endArray()
        json.endObject()
        out.append(0x0A)
        written += 1
        return true
    }

    /// `{"value":…,"unit":"s","system":UCUM,"code":"s"}`.
    private static func seconds(_ value: Double, to json: inout JSONEmitter) {
        FHIRJSON.computedQuantity(value, unit: "s", ucum: "s", to: &json)
    }
}
