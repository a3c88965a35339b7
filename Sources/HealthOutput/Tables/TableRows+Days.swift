import HealthModel

/// The day table's rows (`healthport days`, `healthport-formats(5)` DAYS), its weeks and months,
/// and the workouts as the Health app lists them: the columns CSV, JSON, NDJSON, Parquet and
/// the store share.
extension TableRows {
    /// A day: its date, then the table's columns (`DayTable.columns`), each in its unit.
    static func day<B: TableRowBuilder>(_ day: DayRow, columns: [Int], into row: inout B) {
        row.day("date", day.date)
        for index in columns { row.number(DayColumn.all[index].name, day.values[index].map(ExportNumber.init)) }
    }

    /// A week or a month: its first and last dates, the days of it the data's range covers,
    /// whether that is all of it, then per column its total and daily average
    /// (`<name>_total`, `<name>_daily_average`) or its average (`<name>_average`).
    static func dayPeriod<B: TableRowBuilder>(_ period: DayPeriodRow, columns: [Int], into row: inout B) {
        row.day("first_day", period.start)
        row.day("last_day", CalendarDate.civilFromDays(period.end.dayNumber - 1))
        row.int("days", period.days)
        row.bool("partial", period.isPartial)
        for index in columns {
            let column = DayColumn.all[index]
            switch column.period {
            case .total:
                row.number(column.name + "_total", period.totals[index].map(ExportNumber.init))
                row.number(column.name + "_daily_average", period.averages[index].map(ExportNumber.init))
            case .average:
                row.number(column.name + "_average", period.averages[index].map(ExportNumber.init))
            }
        }
    }

    /// A workout as the Health app lists it (`WorkoutSummary`): times local, the duration in
    /// minutes, distance in kilometres, energy in kilocalories, heart rate in beats per minute.
    static func workoutSummary<B: TableRowBuilder>(_ w: WorkoutSummary, into row: inout B) {
        row.uuid("uuid", w.uuid)
        row.day("date", w.date)
        row.date("start", w.start)
        row.date("end", w.end)
        row.string("activity", w.activity)
        row.string("activity_type", w.activityType)
        row.number("duration_min", ExportNumber(rounded(w.duration / 60, 2)))
        row.number("distance_km", w.distance.map { ExportNumber(rounded($0, 2)) })
        row.number("active_energy_kcal", w.activeEnergy.map { ExportNumber(rounded($0, 0)) })
        row.number("average_heart_rate_bpm", w.averageHeartRate.map { ExportNumber(rounded($0, 0)) })
        row.number("maximum_heart_rate_bpm", w.maximumHeartRate.map { ExportNumber(rounded($0, 0)) })
        row.string("source", w.source)
    }

    /// `value` to `decimals` places, halves away from zero: the precision the Health app shows.
    static func rounded(_ value: Double, _ decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}
