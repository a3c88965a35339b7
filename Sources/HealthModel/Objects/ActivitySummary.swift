/// One day's move, exercise and stand rings (HealthKit: `HKActivitySummary`).
///
/// Not an `HKObject` in HealthKit (no uuid, source or metadata); healthport derives a uuid from
/// its content so that diffs and stores can key it like everything else. `dateComponents` is
/// the day as the person lived it, with no time zone. Exports before iOS 14 lack the move-time
/// pair, and some iOS 14 exports call it `appleMoveMinutes`; both spellings land in
/// `appleMoveTime`.
public struct ActivitySummary: Hashable, Sendable {
    public var uuid: ObjectUUID
    public var dateComponents: CalendarDate?
    public var activeEnergyBurned: ExportNumber?
    public var activeEnergyBurnedGoal: ExportNumber?
    public var activeEnergyBurnedUnit: String?
    public var appleMoveTime: ExportNumber?
    public var appleMoveTimeGoal: ExportNumber?
    public var appleExerciseTime: ExportNumber?
    public var appleExerciseTimeGoal: ExportNumber?
    public var appleStandHours: ExportNumber?
    public var appleStandHoursGoal: ExportNumber?
    public var extensions: Extensions

    public init(uuid: ObjectUUID = ObjectUUID(high: 0, low: 0)) {
        self.uuid = uuid
        self.extensions = .none
    }

    /// What a day's summary measures, each beside its goal, in the export's order: the one list
    /// the XML, JSON, FHIR and table writers and the JSON reader go through, so none can drop
    /// a ring or write it under another name.
    public static let measures: [Measure] = [
        Measure(name: "activeEnergyBurned", value: \.activeEnergyBurned, goal: \.activeEnergyBurnedGoal, fixedUnit: nil),
        Measure(name: "appleMoveTime", value: \.appleMoveTime, goal: \.appleMoveTimeGoal, fixedUnit: "min"),
        Measure(name: "appleExerciseTime", value: \.appleExerciseTime, goal: \.appleExerciseTimeGoal, fixedUnit: "min"),
        Measure(name: "appleStandHours", value: \.appleStandHours, goal: \.appleStandHoursGoal, fixedUnit: "count"),
    ]

    /// One measure of the day and its goal (HealthKit: `activeEnergyBurned` and
    /// `activeEnergyBurnedGoal`, …).
    public struct Measure: Sendable {
        /// The measure's attribute in the export (`appleMoveTime`).
        public let name: String
        /// Its goal's attribute: the name and `Goal`.
        public var goalName: String { name + "Goal" }
        public let value: WritableKeyPath<ActivitySummary, ExportNumber?> & Sendable
        public let goal: WritableKeyPath<ActivitySummary, ExportNumber?> & Sendable
        /// HealthKit's fixed unit; `nil` for energy, whose unit the export writes beside it
        /// (`activeEnergyBurnedUnit`, kilocalories or kilojoules).
        let fixedUnit: String?

        /// The measure and its goal in `summary`, each under its attribute name.
        public func valueAndGoal(in summary: ActivitySummary) -> [(name: String, value: ExportNumber?)] {
            [(name, summary[keyPath: value]), (goalName, summary[keyPath: goal])]
        }

        /// Whether the export writes the measure's unit (`activeEnergyBurnedUnit`) after its goal.
        public var unitIsExported: Bool { fixedUnit == nil }

        /// The unit of the measure and its goal in `summary`: the exported one for energy
        /// (kilocalories when absent, as HealthKit's default), else HealthKit's fixed unit.
        public func unit(in summary: ActivitySummary) -> String {
            fixedUnit ?? summary.activeEnergyBurnedUnit ?? "kcal"
        }
    }
}
