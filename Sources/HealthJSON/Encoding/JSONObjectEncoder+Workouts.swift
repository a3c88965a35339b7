import HealthModel

/// Workouts: their events, activities, statistics and routes.
extension JSONObjectEncoder {
    package static func write(_ w: Workout, to json: inout JSONEmitter) {
        writeSampleObject("workout", w.sample, to: &json) { json in
            json.field("workoutActivityType", w.workoutActivityType.name)
            json.field("duration", w.duration)
            json.field("totalDistance", w.totalDistance)
            json.field("totalEnergyBurned", w.totalEnergyBurned)
            json.field("workoutEvents", w.workoutEvents) { write($1, to: &$0) }
            json.field("workoutActivities", w.workoutActivities) { write($1, to: &$0) }
            json.field("statistics", w.statistics) { write($1, to: &$0) }
            json.field("routes", w.routes) { write($1, to: &$0) }
        }
    }

    package static func write(_ activity: WorkoutActivity, to json: inout JSONEmitter) {
        json.beginObject()
        json.field("uuid", activity.uuid)
        json.field("startDate", activity.startDate)
        json.field("endDate", activity.endDate)
        json.field("duration", activity.duration)
        json.field("workoutEvents", activity.workoutEvents) { write($1, to: &$0) }
        json.field("statistics", activity.statistics) { write($1, to: &$0) }
        writeMetadata(activity.metadata, to: &json)
        writeExtensions(activity.extensions, to: &json)
        json.endObject()
    }

    package static func write(_ route: WorkoutRoute, to json: inout JSONEmitter) {
        json.beginObject()
        writeSample(route.sample, to: &json)
        json.field("fileReference", route.fileReference)
        json.field("locations", route.locations) { write($1, to: &$0) }
        writeTail(route.sample, to: &json)
        json.endObject()
    }

    package static func write(_ l: RouteLocation, to json: inout JSONEmitter) {
        json.beginObject()
        json.field("date", l.date)
        for number in RouteLocation.numbers { json.field(named: number.name, l[keyPath: number.keyPath]) }
        json.endObject()
    }

    package static func write(_ event: WorkoutEvent, to json: inout JSONEmitter) {
        json.beginObject()
        json.field("type", event.type.name)
        json.field("date", event.date)
        json.field("duration", event.duration)
        writeMetadata(event.metadata, to: &json)
        writeExtensions(event.extensions, to: &json)
        json.endObject()
    }

    package static func write(_ s: WorkoutStatistics, to json: inout JSONEmitter) {
        json.beginObject()
        json.field("quantityType", s.quantityType.identifier)
        json.field("startDate", s.startDate)
        json.field("endDate", s.endDate)
        for figure in WorkoutStatistics.figures { json.field(named: figure.name, s[keyPath: figure.keyPath]) }
        json.field("unit", s.unit)
        writeExtensions(s.extensions, to: &json)
        json.endObject()
    }
}
