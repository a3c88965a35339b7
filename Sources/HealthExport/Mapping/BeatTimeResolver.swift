import HealthModel

/// Places an HRV sample's beats on the time line.
///
/// Each beat's `time` is a localized time of day with no date (`11:26:02.34 AM`,
/// `08:33:44,67`, U+202F or U+00A0 before the day period), in the phone's local time *at the
/// beat*, which can differ from the export's fixed offset by a DST or travel difference
/// (quirk Q3). The resolver takes the sample's start instant, measures the first beat's time of
/// day against the start's time of day in the export offset, rounds that difference to a whole
/// quarter hour (the offset correction), applies it to every beat, and adds a day whenever the
/// times go backwards (lists can cross midnight). A time that does not parse keeps its text and
/// gets no date.
enum BeatTimeResolver {
    /// Parses a localized time of day into (second of day, hundredths).
    static func parse(_ text: String) -> (secondOfDay: Int, hundredths: Int?)? {
        var scalars = Array(text.unicodeScalars)
        // Trim and split off a day period.
        var period: String? = nil
        while let last = scalars.last, last == " " || last == "\u{00A0}" || last == "\u{202F}" { scalars.removeLast() }
        if scalars.count >= 2 {
            let tail = String(String.UnicodeScalarView(scalars.suffix(2))).lowercased()
            if tail == "am" || tail == "pm" {
                period = tail
                scalars.removeLast(2)
                while let last = scalars.last, last == " " || last == "\u{00A0}" || last == "\u{202F}" {
                    scalars.removeLast()
                }
            }
        }
        let body = String(String.UnicodeScalarView(scalars))
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let hour = Int(parts[0]), let minute = Int(parts[1]) else { return nil }
        let secondsPart = parts[2]
        var secondText = Substring(secondsPart)
        var hundredths: Int? = nil
        if let separator = secondsPart.firstIndex(where: { $0 == "." || $0 == "," }) {
            secondText = secondsPart[secondsPart.startIndex..<separator]
            let fraction = secondsPart[secondsPart.index(after: separator)...]
            guard !fraction.isEmpty, fraction.count <= 3, let value = Int(fraction) else { return nil }
            hundredths = fraction.count == 1 ? value * 10 : (fraction.count == 2 ? value : value / 10)
        }
        guard secondText.count == 2, let second = Int(secondText) else { return nil }
        guard minute >= 0 && minute < 60 && second >= 0 && second < 61 else { return nil }
        var h = hour
        if let period {
            guard hour >= 1 && hour <= 12 else { return nil }
            h = hour % 12 + (period == "pm" ? 12 : 0)
        } else {
            guard hour >= 0 && hour < 24 else { return nil }
        }
        return (h * 3600 + minute * 60 + second, hundredths)
    }

    /// Fills in `date` and `hundredths` of each beat, relative to the sample's start.
    static func resolve(_ beats: inout [InstantaneousBeatsPerMinute], start: ExportTimestamp) {
        let startLocal = start.secondsSince1970 + Int64(start.utcOffsetSeconds)
        var startSecondOfDay = Int(startLocal % 86_400)
        if startSecondOfDay < 0 { startSecondOfDay += 86_400 }
        var previous: (secondOfDay: Int, instant: Int64)? = nil
        for index in beats.indices {
            guard let parsed = parse(beats[index].time) else {
                continue
            }
            let instant: Int64
            if let previous {
                var step = parsed.secondOfDay - previous.secondOfDay
                if step < 0 { step += 86_400 }
                instant = previous.instant + Int64(step)
            } else {
                var delta = parsed.secondOfDay - startSecondOfDay
                if delta > 43_200 { delta -= 86_400 }
                if delta <= -43_200 { delta += 86_400 }
                let correction = Int((Double(delta) / 900).rounded()) * 900
                instant = start.secondsSince1970 + Int64(delta - correction)
            }
            previous = (parsed.secondOfDay, instant)
            beats[index].date = ExportTimestamp(secondsSince1970: instant, utcOffsetSeconds: start.utcOffsetSeconds)
            beats[index].hundredths = parsed.hundredths
        }
    }
}
