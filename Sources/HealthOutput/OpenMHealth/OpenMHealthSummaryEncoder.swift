import Foundation
import HealthJSON
import HealthModel

/// Writes the summary tables' rows as Open mHealth data points: a night of `healthport sleep` as
/// one `sleep-episode`, a day of `healthport days` as one data point per measure a schema takes.
///
/// A night's episode runs from its sleep onset to its final awakening (`sleepStart`, `sleepEnd`),
/// with its time asleep as `total_sleep_time` and the share of that span asleep as
/// `sleep_maintenance_efficiency_percentage`; its stages (and time in bed, and awake) are in
/// `healthport_sleep_stages`, a member the schema does not define and allows, in seconds as the
/// sleep table gives them. `wake_after_sleep_onset` is not written: the night's awake time
/// includes awake time before onset. A night with time in bed only has no onset and is left out.
///
/// A day's measures become: steps (`step-count`), active and resting energy
/// (`calories-burned`), resting and walking heart rate (`heart-rate`, the day's average, at rest
/// and active), respiratory rate, blood oxygen and weight (the day's averages). Each covers the
/// person's day, local midnight to local midnight in the table's zone; each value is the
/// table's, rounded as the table rounds it. The other columns are left out and counted.
///
/// These points summarise samples and have no object's uuid: theirs is derived from whose they
/// are (`userID`) and what they say (the date, the measure, the value; a night's times and
/// sources), as FHIR derives its Devices' ids (`FHIRResourceID`), so a rerun gives the same uuids
/// and two people with the same day do not share one. A day has no single source
/// or modality; its `source_creation_date_time` is the end of what it sums (the day's end, the
/// night's final awakening).
struct OpenMHealthSummaryEncoder {
    var tally = OpenMHealthTally()
    /// Every header's `user_id`: the FHIR Patient's id (`SummaryTableWriter.begin`).
    var userID = FHIRPatient(nil).id

    /// One night's sleep episode.
    mutating func write(_ night: SleepNight, to out: OutputBuffer) -> Bool {
        guard let start = night.sleepStart, let end = night.sleepEnd else {
            tally.leaveOut("nights with time in bed only (a sleep episode needs its sleep onset and final awakening)")
            return false
        }
        let uuid = FHIRResourceID.derive(
            "OMH sleep-episode",
            [userID, night.night.text, Self.text(start), Self.text(end), String(night.asleep), night.sources.joined(separator: "\n")])
        var json = OpenMHealthHeader(uuid: uuid, schema: .sleepEpisode, sourceCreation: end, modality: nil).beginPoint(userID: userID, to: out)
        OpenMHealthEncoder.timeFrame(start: start, end: end, interval: true, to: &json)
        json.key("total_sleep_time")
        OpenMHealthEncoder.unitValue(night.asleep, unit: "sec", to: &json)
        json.key("is_main_sleep")
        json.literal("true")
        let span = Double(end.secondsSince1970 - start.secondsSince1970)
        if span > 0 {
            json.key("sleep_maintenance_efficiency_percentage")
            OpenMHealthEncoder.unitValue((night.asleep / span * 1000).rounded() / 10, unit: "%", to: &json)
        }
        json.key("healthport_sleep_stages")
        json.beginObject()
        if let inBed = night.inBed {
            json.key("in_bed")
            OpenMHealthEncoder.unitValue(inBed, unit: "sec", to: &json)
        }
        json.key("asleep_unspecified")
        OpenMHealthEncoder.unitValue(night.asleepUnspecified, unit: "sec", to: &json)
        json.key("asleep_core")
        OpenMHealthEncoder.unitValue(night.asleepCore, unit: "sec", to: &json)
        json.key("asleep_deep")
        OpenMHealthEncoder.unitValue(night.asleepDeep, unit: "sec", to: &json)
        json.key("asleep_rem")
        OpenMHealthEncoder.unitValue(night.asleepREM, unit: "sec", to: &json)
        json.key("awake")
        OpenMHealthEncoder.unitValue(night.awake, unit: "sec", to: &json)
        json.endObject()
        Self.end(.sleepEpisode, json: &json, tally: &tally)
        return true
    }

    /// How one column of the day table becomes a body.
    struct DayMeasure {
        let schema: OpenMHealthSchema
        let key: StaticString
        let unit: String
        /// `descriptive_statistic` (`average` for the day's averages; none for totals).
        let statistic: StaticString?
        /// `temporal_relationship_to_physical_activity`, for heart rates.
        let activity: StaticString?
    }

    /// The day table's columns with a body, by column name.
    static let dayMeasures: [String: DayMeasure] = [
        "steps": DayMeasure(schema: .stepCount, key: "step_count", unit: "steps", statistic: nil, activity: nil),
        "active_energy_kcal": DayMeasure(schema: .caloriesBurned, key: "kcal_burned", unit: "kcal", statistic: nil, activity: nil),
        "resting_energy_kcal": DayMeasure(schema: .caloriesBurned, key: "kcal_burned", unit: "kcal", statistic: nil, activity: nil),
        "resting_heart_rate_bpm": DayMeasure(
            schema: .heartRate, key: "heart_rate", unit: "beats/min", statistic: "average", activity: "at rest"),
        "walking_heart_rate_bpm": DayMeasure(
            schema: .heartRate, key: "heart_rate", unit: "beats/min", statistic: "average", activity: "active"),
        "respiratory_rate_per_min": DayMeasure(
            schema: .respiratoryRate, key: "respiratory_rate", unit: "breaths/min", statistic: "average", activity: nil),
        "blood_oxygen_pct": DayMeasure(schema: .oxygenSaturation, key: "oxygen_saturation", unit: "%", statistic: "average", activity: nil),
        "weight_kg": DayMeasure(schema: .bodyWeight, key: "body_weight", unit: "kg", statistic: "average", activity: nil),
    ]

    /// A day's data points, one per column of `columns` with a value; returns how many.
    mutating func write(_ day: DayRow, columns: [Int], timeZone: TimeZone, to out: OutputBuffer) -> Int {
        let start = Self.midnight(day.date, in: timeZone)
        let end = Self.midnight(CalendarDate.civilFromDays(day.date.dayNumber + 1), in: timeZone)
        var written = 0
        for index in columns {
            guard let value = day.values[index] else { continue }
            let column = DayColumn.all[index]
            guard let measure = Self.dayMeasures[column.name] else {
                tally.leaveOut("days' \(column.name) (no Open mHealth schema\(column.type == "HKCategoryTypeIdentifierSleepAnalysis" ? "; the nights are written as sleep episodes" : ""))")
                continue
            }
            let uuid = FHIRResourceID.derive("OMH day", [userID, day.date.text, column.name, String(value), timeZone.identifier])
            var json = OpenMHealthHeader(uuid: uuid, schema: measure.schema, sourceCreation: end, modality: nil).beginPoint(userID: userID, to: out)
            json.key(measure.key)
            OpenMHealthEncoder.unitValue(value, unit: measure.unit, to: &json)
            OpenMHealthEncoder.timeFrame(start: start, end: end, interval: true, to: &json)
            OpenMHealthEncoder.qualifiers(statistic: measure.statistic, activity: measure.activity, to: &json)
            Self.end(measure.schema, json: &json, tally: &tally)
            written += 1
        }
        return written
    }

    /// Local midnight at the start of `date` in `zone`, with the offset in force then.
    static func midnight(_ date: CalendarDate, in zone: TimeZone) -> ExportTimestamp {
        let wall = Int64(date.dayNumber) * 86_400
        var offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(wall)))
        // The offset at the instant itself, where a transition falls between the two.
        let corrected = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(wall - Int64(offset))))
        if corrected != offset { offset = corrected }
        return ExportTimestamp(secondsSince1970: wall - Int64(offset), utcOffsetSeconds: Int32(offset))
    }

    private static func text(_ t: ExportTimestamp) -> String {
        "\(t.secondsSince1970) \(t.utcOffsetSeconds)"
    }


    private static func end(_ schema: OpenMHealthSchema, json: inout JSONEmitter, tally: inout OpenMHealthTally) {
        json.endObject()
        json.endObject()
        json.out.append(0x0A)
        tally.add(schema)
    }
}
