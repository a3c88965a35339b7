import Foundation
import HealthModel

/// Workouts and their parts: events, activities, statistics, routes and route locations.
extension ExportMapper {
    func startWorkout(_ attributes: AttributeView, _ parser: any ElementEventSource) -> Workout {
        var activityType = ""
        var quantities = QuantityAttributes()
        let sample = sampleAttributes(attributes, element: "Workout", parser: parser) { name, value in
            switch name {
            case "workoutActivityType":
                activityType = String(decoding: value, as: UTF8.self)
            case "duration", "totalDistance", "totalEnergyBurned":
                quantities.value(self.number(value, name, "Workout", parser), of: name)
            case "durationUnit", "totalDistanceUnit", "totalEnergyBurnedUnit":
                quantities.unit(value, of: String(name.dropLast(4)))
            default:
                return false
            }
            return true
        }.with(type: .workout)
        return Workout(
            sample: sample, workoutActivityType: WorkoutActivityType(name: activityType), duration: quantities.quantity("duration"),
            totalDistance: quantities.quantity("totalDistance"), totalEnergyBurned: quantities.quantity("totalEnergyBurned"))
    }

    func startEvent(_ attributes: AttributeView, _ parser: any ElementEventSource) -> WorkoutEvent? {
        var type = ""
        var date: ExportTimestamp? = nil
        var quantities = QuantityAttributes()
        var extensions = Extensions()
        attributes.forEach { name, value in
            switch name {
            case "type": type = String(decoding: value, as: UTF8.self)
            case "date": date = self.date(value, name, "WorkoutEvent", parser)
            case "duration": quantities.value(number(value, name, "WorkoutEvent", parser), of: name)
            case "durationUnit": quantities.unit(value, of: "duration")
            default: unknownAttribute("WorkoutEvent", name, value, into: &extensions, parser)
            }
        }
        guard let date = required(date, "date", on: "WorkoutEvent", parser) else { return nil }
        return WorkoutEvent(
            type: WorkoutEventType(name: type), date: date, duration: quantities.quantity("duration"),
            extensions: extensions)
    }

    func startActivity(_ attributes: AttributeView, _ parser: any ElementEventSource) -> WorkoutActivity? {
        var uuid = ""
        var start: ExportTimestamp? = nil
        var end: ExportTimestamp? = nil
        var quantities = QuantityAttributes()
        var extensions = Extensions()
        attributes.forEach { name, value in
            switch name {
            case "uuid": uuid = String(decoding: value, as: UTF8.self)
            case "startDate": start = date(value, name, "WorkoutActivity", parser)
            case "endDate": end = date(value, name, "WorkoutActivity", parser)
            case "duration": quantities.value(number(value, name, "WorkoutActivity", parser), of: name)
            case "durationUnit": quantities.unit(value, of: "duration")
            default: unknownAttribute("WorkoutActivity", name, value, into: &extensions, parser)
            }
        }
        guard let start = required(start, "startDate", on: "WorkoutActivity", parser) else { return nil }
        return WorkoutActivity(
            uuid: uuid, startDate: start, endDate: end, duration: quantities.quantity("duration"),
            extensions: extensions)
    }

    func startStatistics(_ attributes: AttributeView, _ parser: any ElementEventSource) -> WorkoutStatistics? {
        var type = ObjectType(identifier: "", kind: .quantity)
        var start: ExportTimestamp? = nil
        var end: ExportTimestamp? = nil
        var statistics = WorkoutStatistics(
            quantityType: type, startDate: ExportTimestamp(secondsSince1970: 0, utcOffsetSeconds: 0),
            endDate: ExportTimestamp(secondsSince1970: 0, utcOffsetSeconds: 0))
        attributes.forEach { name, value in
            switch name {
            case "type": type = recordTypes.value(for: value).type
            case "startDate": start = date(value, name, "WorkoutStatistics", parser)
            case "endDate": end = date(value, name, "WorkoutStatistics", parser)
            case "average": statistics.average = number(value, name, "WorkoutStatistics", parser)
            case "minimum": statistics.minimum = number(value, name, "WorkoutStatistics", parser)
            case "maximum": statistics.maximum = number(value, name, "WorkoutStatistics", parser)
            case "sum": statistics.sum = number(value, name, "WorkoutStatistics", parser)
            case "unit": statistics.unit = units.value(for: value)
            default: unknownAttribute("WorkoutStatistics", name, value, into: &statistics.extensions, parser)
            }
        }
        guard let start = required(start, "startDate", on: "WorkoutStatistics", parser) else { return nil }
        statistics.quantityType = type
        statistics.startDate = start
        statistics.endDate = end ?? start
        return statistics
    }

    func startLocation(_ attributes: AttributeView, _ parser: any ElementEventSource) -> RouteLocation {
        var location = RouteLocation()
        attributes.forEach { name, value in
            switch name {
            case "date": location.date = date(value, name, "Location", parser)
            case "latitude": location.latitude = number(value, name, "Location", parser)
            case "longitude": location.longitude = number(value, name, "Location", parser)
            case "altitude": location.altitude = number(value, name, "Location", parser)
            case "horizontalAccuracy": location.horizontalAccuracy = number(value, name, "Location", parser)
            case "verticalAccuracy": location.verticalAccuracy = number(value, name, "Location", parser)
            case "course": location.course = number(value, name, "Location", parser)
            case "speed": location.speed = number(value, name, "Location", parser)
            default:
                notePassedThrough("Location@\(name)")
            }
        }
        return location
    }
}
