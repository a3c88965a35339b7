import HealthModel

/// One type's statistics per interval, with HealthKit's meaning of its aggregation style:
/// cumulative types as sums (sources merged as `healthport stats` merges them), discrete types
/// as minimum, average and maximum.
public struct TypeSeries: Sendable {
    public enum Kind: String, Sendable {
        case cumulative, discrete
    }

    /// How long each point's interval is: days, unless the series would have more points than a
    /// chart can show, then weeks, then months.
    public enum Resolution: String, Sendable {
        case day, week, month
    }

    public struct Point: Sendable {
        /// The interval's start, in the report's zone.
        public var start: ExportTimestamp
        public var sum: Double?
        public var minimum: Double?
        public var average: Double?
        public var maximum: Double?

        public init(start: ExportTimestamp, sum: Double? = nil, minimum: Double? = nil, average: Double? = nil, maximum: Double? = nil) {
            self.start = start
            self.sum = sum
            self.minimum = minimum
            self.average = average
            self.maximum = maximum
        }

        /// The value a chart's main mark shows: the sum, else the average.
        public var value: Double? { sum ?? average }
    }

    /// The type's identifier (`HKQuantityTypeIdentifierStepCount`).
    public var identifier: String
    public var kind: Kind
    /// The unit of every value (the type's canonical unit).
    public var unit: String
    public var resolution: Resolution
    public var points: [Point]

    public init(identifier: String, kind: Kind, unit: String, resolution: Resolution, points: [Point]) {
        self.identifier = identifier
        self.kind = kind
        self.unit = unit
        self.resolution = resolution
        self.points = points
    }

    /// The name people read: the identifier without its HealthKit prefix, words apart
    /// (`Step Count`).
    public var title: String {
        identifier == "HKCategoryTypeIdentifierAppleStandHour" ? "Stand Hours" : ReportNames.words(TypeCatalogue.shortName(of: identifier))
    }
}

/// Names as people read them.
public enum ReportNames {
    /// `HeartRateVariabilitySDNN` → `Heart Rate Variability SDNN`.
    public static func words(_ name: String) -> String {
        var out = ""
        let characters = Array(name)
        for (i, c) in characters.enumerated() {
            if i > 0, c.isUppercase {
                let previous = characters[i - 1]
                let next = i + 1 < characters.count ? characters[i + 1] : nil
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true) { out.append(" ") }
            } else if i > 0, c.isNumber, characters[i - 1].isLowercase {
                out.append(" ")
            }
            out.append(c)
        }
        return out
    }
}
