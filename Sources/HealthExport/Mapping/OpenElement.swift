import HealthModel

/// An element being read, with the object it builds: the mapper's one stack of open objects.
///
/// A child that finishes is handed to the element below it (`adopt`); metadata entries and
/// elements passed through go to the element on top (`addMetadata`, `addExtension`). Records,
/// the hot path, build in the mapper's reused `RecordBuilder`, and stand here as `.element(.record)`.
///
/// Objects are boxed (`indirect`) so that the stack's elements stay a word wide: records and
/// metadata entries, pushed and popped millions of times, then copy nothing (unboxed, every
/// element was as large as a workout: 5 % of a conversion). Payloads are mutated by taking them
/// out (the slot holds a placeholder meanwhile), so a workout's arrays are never copied when a
/// part is appended.
enum OpenElement {
    /// An element that builds nothing of its own (the root, a record, a metadata entry, an HRV
    /// list, a file reference, …), or whose start failed.
    case element(ElementKind)
    indirect case correlation(Correlation)
    indirect case workout(Workout)
    indirect case workoutEvent(WorkoutEvent)
    indirect case workoutActivity(WorkoutActivity)
    indirect case workoutStatistics(WorkoutStatistics)
    indirect case workoutRoute(WorkoutRoute)
    indirect case location(RouteLocation)
    indirect case activitySummary(ActivitySummary)
    indirect case clinicalRecord(ClinicalRecord)
    indirect case audiogram(Audiogram)
    indirect case sensitivityPoint(SensitivityPoint)
    indirect case visionPrescription(VisionPrescription)
    indirect case eye(LensSpecification, isRight: Bool)

    var kind: ElementKind {
        switch self {
        case .element(let kind): return kind
        case .correlation: return .correlation
        case .workout: return .workout
        case .workoutEvent: return .workoutEvent
        case .workoutActivity: return .workoutActivity
        case .workoutStatistics: return .workoutStatistics
        case .workoutRoute: return .workoutRoute
        case .location: return .location
        case .activitySummary: return .activitySummary
        case .clinicalRecord: return .clinicalRecord
        case .audiogram: return .audiogram
        case .sensitivityPoint: return .sensitivityPoint
        case .visionPrescription: return .visionPrescription
        case .eye(_, let isRight): return isRight ? .rightEye : .leftEye
        }
    }

    /// Adds a finished child to this element's object: an event, activity, statistic or route to
    /// its workout (events and statistics also to an activity), a location to its route, a point
    /// to its audiogram, an eye to its prescription. Other pairs cannot occur (the mapper opens
    /// them only under these parents).
    mutating func adopt(_ child: OpenElement) {
        // `if case … = self` then `self = placeholder`: the object's arrays are then held once
        // and grow in place. A `switch self` keeps its subject alive to the end of the case, so
        // every child appended copied them: a workout with a legacy inline route of 25,000
        // points took 7.6 s to read, 90,000 points 97 s.
        if case .workout(var workout) = self {
            self = .element(.workout)
            switch child {
            case .workoutEvent(let event): workout.workoutEvents.append(event)
            case .workoutActivity(let activity): workout.workoutActivities.append(activity)
            case .workoutStatistics(let statistics): workout.statistics.append(statistics)
            case .workoutRoute(let route): workout.routes.append(route)
            default: break
            }
            self = .workout(workout)
        } else if case .workoutActivity(var activity) = self {
            self = .element(.workoutActivity)
            switch child {
            case .workoutEvent(let event): activity.workoutEvents.append(event)
            case .workoutStatistics(let statistics): activity.statistics.append(statistics)
            default: break
            }
            self = .workoutActivity(activity)
        } else if case .workoutRoute(var route) = self {
            guard case .location(let location) = child else { return }
            self = .element(.workoutRoute)
            route.locations.append(location)
            self = .workoutRoute(route)
        } else if case .audiogram(var audiogram) = self {
            guard case .sensitivityPoint(let point) = child else { return }
            self = .element(.audiogram)
            audiogram.sensitivityPoints.append(point)
            self = .audiogram(audiogram)
        } else if case .visionPrescription(var prescription) = self {
            guard case .eye(let eye, let isRight) = child else { return }
            self = .element(.visionPrescription)
            if isRight { prescription.rightEye = eye } else { prescription.leftEye = eye }
            self = .visionPrescription(prescription)
        }
    }

    /// Runs `body` on the metadata entries of this element's object; `false` when the object
    /// holds no metadata (records keep theirs in the record builder).
    @discardableResult
    mutating func addMetadata(_ body: (inout [MetadataEntry]) -> Void) -> Bool {
        // `if case`, not `switch self`: see `adopt`.
        if case .correlation(var object) = self {
            self = .element(.correlation)
            body(&object.sample.metadata.entries)
            self = .correlation(object)
        } else if case .workout(var object) = self {
            self = .element(.workout)
            body(&object.sample.metadata.entries)
            self = .workout(object)
        } else if case .workoutEvent(var object) = self {
            self = .element(.workoutEvent)
            body(&object.metadata.entries)
            self = .workoutEvent(object)
        } else if case .workoutActivity(var object) = self {
            self = .element(.workoutActivity)
            body(&object.metadata.entries)
            self = .workoutActivity(object)
        } else if case .workoutRoute(var object) = self {
            self = .element(.workoutRoute)
            body(&object.sample.metadata.entries)
            self = .workoutRoute(object)
        } else if case .audiogram(var object) = self {
            self = .element(.audiogram)
            body(&object.sample.metadata.entries)
            self = .audiogram(object)
        } else if case .visionPrescription(var object) = self {
            self = .element(.visionPrescription)
            body(&object.metadata.entries)
            self = .visionPrescription(object)
        } else {
            return false
        }
        return true
    }

    /// Keeps an element the model does not know in this element's object's `extensions`;
    /// `false` when the object has none (the element is then dropped, with a warning).
    mutating func addExtension(_ element: GenericElement) -> Bool {
        // `if case`, not `switch self`: see `adopt`.
        if case .correlation(var object) = self {
            self = .element(.correlation)
            object.sample.extensions.elements.append(element)
            self = .correlation(object)
        } else if case .workout(var object) = self {
            self = .element(.workout)
            object.sample.extensions.elements.append(element)
            self = .workout(object)
        } else if case .workoutEvent(var object) = self {
            self = .element(.workoutEvent)
            object.extensions.elements.append(element)
            self = .workoutEvent(object)
        } else if case .workoutActivity(var object) = self {
            self = .element(.workoutActivity)
            object.extensions.elements.append(element)
            self = .workoutActivity(object)
        } else if case .workoutStatistics(var object) = self {
            self = .element(.workoutStatistics)
            object.extensions.elements.append(element)
            self = .workoutStatistics(object)
        } else if case .workoutRoute(var object) = self {
            self = .element(.workoutRoute)
            object.sample.extensions.elements.append(element)
            self = .workoutRoute(object)
        } else if case .activitySummary(var object) = self {
            self = .element(.activitySummary)
            object.extensions.elements.append(element)
            self = .activitySummary(object)
        } else if case .clinicalRecord(var object) = self {
            self = .element(.clinicalRecord)
            object.extensions.elements.append(element)
            self = .clinicalRecord(object)
        } else if case .audiogram(var object) = self {
            self = .element(.audiogram)
            object.sample.extensions.elements.append(element)
            self = .audiogram(object)
        } else if case .sensitivityPoint(var object) = self {
            self = .element(.sensitivityPoint)
            object.extensions.elements.append(element)
            self = .sensitivityPoint(object)
        } else if case .visionPrescription(var object) = self {
            self = .element(.visionPrescription)
            object.extensions.elements.append(element)
            self = .visionPrescription(object)
        } else if case .eye(var object, let isRight) = self {
            self = .element(isRight ? .rightEye : .leftEye)
            object.extensions.elements.append(element)
            self = .eye(object, isRight: isRight)
        } else {
            return false
        }
        return true
    }
}
