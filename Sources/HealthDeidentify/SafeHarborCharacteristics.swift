import HealthModel

/// The person's characteristics cut to what HIPAA's Safe Harbor method allows
/// (45 CFR 164.514(b)(2)): of the date of birth, the year alone; for a person 90 or older, not
/// even the year, but the one category Safe Harbor allows, written `90+`.
///
/// The year is that of the date of birth shifted like every other date (`DateShift`), so that
/// an age computed from a shifted sample date and the year of birth is right to within a year,
/// as it is with the real year and the real dates. The age that decides the `90+` category is
/// the real one, at the export's date.
///
/// Biological sex, blood type, Fitzpatrick skin type and the cardio-fitness medications use are
/// not among Safe Harbor's identifiers and are kept; characteristics healthport does not model
/// are removed (they cannot be vetted).
public enum SafeHarborCharacteristics {
    /// What a person of 90 or older gets instead of a year of birth.
    public static let ninetyOrOlder = "90+"

    /// - Parameters:
    ///   - characteristics: what the policy let through.
    ///   - shift: the person's date shift.
    ///   - asOf: the export's date (the real one), for the age.
    public static func cut(_ characteristics: Characteristics, shift: DateShift, asOf: ExportTimestamp?) -> Characteristics {
        var cut = Characteristics()
        cut.biologicalSex = characteristics.biologicalSex
        cut.bloodType = characteristics.bloodType
        cut.fitzpatrickSkinType = characteristics.fitzpatrickSkinType
        cut.cardioFitnessMedicationsUse = characteristics.cardioFitnessMedicationsUse
        if let text = characteristics.dateOfBirth, let birth = CalendarDate.parse(text) {
            let reference = asOf.map { CalendarDate.civilFromDays(Int(($0.secondsSince1970 + Int64($0.utcOffsetSeconds)).floorDivided(by: 86_400))) }
            if let reference, age(born: birth, on: reference) >= 90 {
                cut.dateOfBirth = ninetyOrOlder
            } else {
                cut.dateOfBirth = String(shift.shifted(birth).year)
            }
        }
        return cut
    }

    /// Whole years between two dates.
    static func age(born: CalendarDate, on day: CalendarDate) -> Int {
        var years = day.year - born.year
        if (day.month, day.day) < (born.month, born.day) { years -= 1 }
        return years
    }
}

extension Int64 {
    /// Division rounding towards minus infinity (days before 1970 stay on their day).
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
