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
}
