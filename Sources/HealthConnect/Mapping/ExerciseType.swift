import HealthModel

/// Health Connect's exercise types (the platform's `ExerciseSessionType` codes, which the
/// database stores; tables that follow Jetpack's client library number them differently) as
/// HealthKit's workout activity types. Several codes share one HealthKit type (treadmill
/// running is running, indoors); the code itself is kept in the workout's metadata.
enum ExerciseType {
    /// The activity type and whether HealthKit would call it indoor (`HKIndoorWorkout`).
    static func activity(ofCode code: Int64) -> (type: WorkoutActivityType, indoor: Bool) {
        let (name, indoor): (String, Bool) =
            switch code {
            case 1: ("Badminton", false)
            case 2: ("Baseball", false)
            case 3: ("Basketball", false)
            case 4: ("Cycling", false)
            case 5: ("Cycling", true)
            case 6: ("CrossTraining", false)
            case 7: ("Boxing", false)
            case 8: ("FunctionalStrengthTraining", false)
            case 9: ("Cricket", false)
            case 10: ("SocialDance", false)
            case 12: ("Fencing", false)
            case 13: ("AmericanFootball", false)
            case 14: ("AustralianFootball", false)
            case 15: ("DiscSports", false)
            case 16: ("Golf", false)
            case 17: ("MindAndBody", false)
            case 18: ("Gymnastics", false)
            case 19: ("Handball", false)
            case 20: ("HighIntensityIntervalTraining", false)
            case 21: ("Hiking", false)
            case 22, 30: ("Hockey", false)
            case 23, 37: ("SkatingSports", false)
            case 24: ("MartialArts", false)
            case 25: ("PaddleSports", false)
            case 27: ("Pilates", false)
            case 28: ("Racquetball", false)
            case 29: ("Climbing", false)
            case 31: ("Rowing", false)
            case 32: ("Rugby", false)
            case 33: ("Running", false)
            case 34: ("Running", true)
            case 35: ("Sailing", false)
            case 36: ("UnderwaterDiving", false)
            case 38: ("DownhillSkiing", false)
            case 39: ("Snowboarding", false)
            case 40: ("SnowSports", false)
            case 41: ("Soccer", false)
            case 42: ("Softball", false)
            case 43: ("Squash", false)
            case 44: ("StairClimbing", false)
            case 45, 55: ("TraditionalStrengthTraining", false)
            case 46: ("Flexibility", false)
            case 47: ("SurfingSports", false)
            case 48: ("Swimming", false)
            case 49: ("Swimming", true)
            case 50: ("TableTennis", false)
            case 51: ("Tennis", false)
            case 52: ("Volleyball", false)
            case 53: ("Walking", false)
            case 54: ("WaterPolo", false)
            case 56: ("WheelchairWalkPace", false)
            case 57: ("Yoga", false)
            case 59: ("StairClimbing", true)
            case 60: ("Elliptical", true)
            case 61: ("Rowing", true)
            // 0 unknown, 11 exercise class, 26 paragliding, 58 other workout, and codes newer
            // than this table.
            default: ("Other", false)
            }
        return (WorkoutActivityType(name: "HKWorkoutActivityType" + name), indoor)
    }
}
