import HealthModel

/// Workouts: their events, activities, statistics and routes.
extension JSONObjectEncoder {
    package static func write(_ w: Workout, to json: inout JSONEmitter) {
        json.beginObject()
        json.key("kind")
        json.literal("workout")
        writeSample(w.sample, to: &json)
        json.key("workoutActivityType")
        json.string(w.workoutActivityType.name)
        if let d = w.duration {
            json.key("duration")
            json.quantity(d)
        }
        if let d = w.totalDistance {
            json.key("totalDistance")
            json.quantity(d)
        }
        if let e = w.totalEnergyBurned {
            json.key("totalEnergyBurned")
            json.quantity(e)
        }
        if !w.workoutEvents.isEmpty {
            json.key("workoutEvents")
            writeEvents(w.workoutEvents, to: &json)
        }
        if !w.workoutActivities.isEmpty {
            json.key("workoutActivities")
            json.beginArray()
            for activity in w.workoutActivities {
                json.element()
                json.beginObject()
                json.key("uuid")
                json.string(activity.uuid)
                json.key("startDate")
                json.date(activity.startDate)
                if let end = activity.endDate {
                    json.key("endDate")
                    json.date(end)
                }
                if let d = activity.duration {
                    json.key("duration")
                    json.quantity(d)
                }
                if !activity.workoutEvents.isEmpty {
                    json.key("workoutEvents")
                    writeEvents(activity.workoutEvents, to: &json)
                }
                if !activity.statistics.isEmpty {
                    json.key("statistics")
                    writeStatistics(activity.statistics, to: &json)
                }
                writeMetadata(activity.metadata, to: &json)
                writeExtensions(activity.extensions, to: &json)
                json.endObject()
            }
            json.endArray()
        }
        if !w.statistics.isEmpty {
            json.key("statistics")
            writeStatistics(w.statistics, to: &json)
        }
        if !w.routes.isEmpty {
            json.key("routes")
            json.beginArray()
            for route in w.routes {
                json.element()
                json.beginObject()
                writeSample(route.sample, to: &json)
                if let file = route.fileReference {
                    json.key("fileReference")
                    json.string(file)
                }
                if !route.locations.isEmpty {
                    json.key("locations")
                    json.beginArray()
                    for location in route.locations {
                        json.element()
                        write(location, to: &json)
                    }
                    json.endArray()
                }
                writeTail(route.sample, to: &json)
                json.endObject()
            }
            json.endArray()
        }
        writeTail(w.sample, to: &json)
        json.endObject()
    }

    package static func write(_ l: RouteLocation, to json: inout JSONEmitter) {
        json.beginObject()
        if let date = l.date {
            json.key("date")
            json.date(date)
        }
        json.field("latitude", l.latitude)
        json.field("longitude", l.longitude)
        json.field("altitude", l.altitude)
        json.field("horizontalAccuracy", l.horizontalAccuracy)
        json.field("verticalAccuracy", l.verticalAccuracy)
        json.field("course", l.course)
        json.field("speed", l.speed)
        json.endObject()
    }

    package static func writeEvents(_ events: [WorkoutEvent], to json: inout JSONEmitter) {
        json.beginArray()
        for event in events {
            json.element()
            json.beginObject()
            json.key("type")
            json.string(event.type.name)
            json.key("date")
            json.date(event.date)
            if let d = event.duration {
                json.key("duration")
                json.quantity(d)
            }
            writeMetadata(event.metadata, to: &json)
            writeExtensions(event.extensions, to: &json)
            json.endObject()
        }
        json.endArray()
    }

    package static func writeStatistics(_ statistics: [WorkoutStatistics], to json: inout JSONEmitter) {
        json.beginArray()
        for s in statistics {
            json.element()
            json.beginObject()
            json.key("quantityType")
            json.string(s.quantityType.identifier)
            json.key("startDate")
            json.date(s.startDate)
            json.key("endDate")
            json.date(s.endDate)
            json.field("sum", s.sum)
            json.field("average", s.average)
            json.field("minimum", s.minimum)
            json.field("maximum", s.maximum)
            if let unit = s.unit {
                json.key("unit")
                json.string(unit)
            }
            writeExtensions(s.extensions, to: &json)
            json.endObject()
        }
        json.endArray()
    }
}
