import HealthJSON
import HealthModel

/// The summary tables' schema, written once: a day of one type (`healthport summary`), a night,
/// a coverage row, a day of the day table (`healthport days`), its weeks and months, and a
/// workout as the Health app lists it. The CSV, JSON, NDJSON and Parquet writers (HealthOutput)
/// and the store's tables (HealthStore, through `SummaryTableCells`) all take their columns from
/// here, so the store never links the writers and its tables cannot drift from the files.
///
/// The objects' own tables (`TableRows`) stay with the writers: they are the hot path, and
/// generic code is specialised only within its module.
package enum SummaryTableRows {
    /// The sources that counted, a JSON array of names (a JSON cell, as metadata).
    package static func sources<B: TableRowBuilder>(_ names: [String], into row: inout B) {
        row.json("sources") { json in
            json.beginArray()
            for name in names {
                json.element()
                json.string(name)
            }
            json.endArray()
        }
    }

    /// A day's row of the daily summary (`healthport-formats(5)`, DAILY SUMMARY): the sources
    /// that counted as a JSON array of names.
    package static func dailySummary<B: TableRowBuilder>(_ d: DailySummary, into row: inout B) {
        row.day("date", d.date)
        row.string("sampleType", d.type)
        row.string("unit", d.unit)
        row.number("sum", d.sum.map(ExportNumber.init))
        row.number("average", d.average.map(ExportNumber.init))
        row.number("minimum", d.minimum.map(ExportNumber.init))
        row.number("maximum", d.maximum.map(ExportNumber.init))
        row.number("duration", d.duration.map(ExportNumber.init))
        row.number("inBed", d.inBed.map(ExportNumber.init))
        row.int("count", d.count)
        sources(d.sources, into: &row)
    }

    /// A `coverage` row (healthport-formats(5)): the share as a number, the days as dates.
    package static func coverage<B: TableRowBuilder>(_ c: TypeCoverage, into row: inout B) {
        row.string("sampleType", c.type)
        row.day("firstDay", c.firstDay)
        row.day("lastDay", c.lastDay)
        row.int("days", c.days)
        row.int("samples", c.samples)
        row.int("coveredHours", c.coveredHours)
        row.number("coveredShare", c.coveredShare.map(ExportNumber.init))
    }

    /// A night's row (`healthport-formats(5)`, SLEEP NIGHTS); durations in seconds.
    package static func sleepNight<B: TableRowBuilder>(_ n: SleepNight, into row: inout B) {
        row.day("night", n.night)
        row.number("inBed", n.inBed.map(ExportNumber.init))
        row.number("asleep", ExportNumber(n.asleep))
        row.number("asleepUnspecified", ExportNumber(n.asleepUnspecified))
        row.number("asleepCore", ExportNumber(n.asleepCore))
        row.number("asleepDeep", ExportNumber(n.asleepDeep))
        row.number("asleepREM", ExportNumber(n.asleepREM))
        row.number("awake", ExportNumber(n.awake))
        row.date("sleepStart", n.sleepStart)
        row.date("sleepEnd", n.sleepEnd)
        row.number("naps", ExportNumber(n.naps))
        sources(n.sources, into: &row)
    }

    /// A day: its date, then the table's columns (`DayTable.columns`), each in its unit.
    package static func day<B: TableRowBuilder>(_ day: DayRow, columns: [Int], into row: inout B) {
        row.day("date", day.date)
        for index in columns { row.number(DayColumn.all[index].name, day.values[index].map(ExportNumber.init)) }
    }

    /// A week or a month: its first and last dates, the days of it the data's range covers,
    /// whether that is all of it, then per column its total and daily average
    /// (`<name>_total`, `<name>_daily_average`) or its average (`<name>_average`).
    package static func dayPeriod<B: TableRowBuilder>(_ period: DayPeriodRow, columns: [Int], into row: inout B) {
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
    package static func workoutSummary<B: TableRowBuilder>(_ w: WorkoutSummary, into row: inout B) {
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
    package static func rounded(_ value: Double, _ decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}
