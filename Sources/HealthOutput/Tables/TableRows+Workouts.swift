import HealthModel
import HealthTables

/// Workouts' tables: the workout, and its parts (events, activities, statistics, routes and
/// their locations), each part row keyed by its workout's uuid.
extension TableRows {
    static func workout<B: TableRowBuilder>(_ w: Workout, local: LocalColumns = .absent, into row: inout B) {
        sampleHead(w.sample, local: local, into: &row)
        row.string("workoutActivityType", w.workoutActivityType.name)
        row.number("duration_value", w.duration?.value)
        row.string("duration_unit", w.duration?.unit)
        // As HealthKit fills them: from the statistics when the export has no attribute.
        let distance = w.effectiveTotalDistance
        let energy = w.effectiveTotalEnergyBurned
        row.number("totalDistance_value", distance?.value)
        row.string("totalDistance_unit", distance?.unit)
        row.number("totalEnergyBurned_value", energy?.value)
        row.string("totalEnergyBurned_unit", energy?.unit)
        provenance(w.sample, into: &row)
        tail(w.sample, into: &row)
    }

    static func workoutEvent<B: TableRowBuilder>(_ event: WorkoutEvent, of workout: ObjectUUID, activity: String?, into row: inout B) {
        row.uuid("workout_uuid", workout)
        row.string("workoutActivity_uuid", activity)
        row.string("type", event.type.name)
        row.date("date", event.date)
        row.number("duration_value", event.duration?.value)
        row.string("duration_unit", event.duration?.unit)
        metadata(event.metadata, into: &row)
        extensions(event.extensions, into: &row)
    }

    static func workoutActivity<B: TableRowBuilder>(_ activity: WorkoutActivity, of workout: ObjectUUID, into row: inout B) {
        row.uuid("workout_uuid", workout)
        row.string("uuid", activity.uuid)
        row.date("startDate", activity.startDate)
        row.date("endDate", activity.endDate)
        row.number("duration_value", activity.duration?.value)
        row.string("duration_unit", activity.duration?.unit)
        metadata(activity.metadata, into: &row)
        extensions(activity.extensions, into: &row)
    }

    static func workoutStatistics<B: TableRowBuilder>(
        _ s: WorkoutStatistics, of workout: ObjectUUID, activity: String?, into row: inout B
    ) {
        row.uuid("workout_uuid", workout)
        row.string("workoutActivity_uuid", activity)
        row.string("quantityType", s.quantityType.identifier)
        row.date("startDate", s.startDate)
        row.date("endDate", s.endDate)
        for figure in WorkoutStatistics.figures { row.number(figure.name, s[keyPath: figure.keyPath]) }
        row.string("unit", s.unit)
        extensions(s.extensions, into: &row)
    }

    static func workoutRoute<B: TableRowBuilder>(_ route: WorkoutRoute, of workout: ObjectUUID, into row: inout B) {
        row.uuid("workout_uuid", workout)
        row.uuid("uuid", route.sample.uuid)
        row.date("startDate", route.sample.startDate)
        row.date("endDate", route.sample.endDate)
        row.string("fileReference", route.fileReference)
        provenance(route.sample, into: &row)
        tail(route.sample, into: &row)
    }

    static func routeLocation<B: TableRowBuilder>(_ location: RouteLocation, of route: ObjectUUID, into row: inout B) {
        row.uuid("route_uuid", route)
        row.date("date", location.date)
        for number in RouteLocation.numbers { row.number(number.name, location[keyPath: number.keyPath]) }
    }
}
