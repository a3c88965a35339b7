import HealthModel
import HealthOutput
import Testing

/// Statistics tables in their four forms, byte for byte.
@Suite struct StatisticsWriterTests {
    static func timestamp(_ text: String) -> ExportTimestamp { ExportTimestamp.parse(text)! }

    static let table = StatisticsTable(
        columns: ["average", "maximum"], unit: "count/min", isSeparatedBySource: true,
        rows: [
            .init(start: timestamp("2024-01-01 00:00:00 +0100"), end: timestamp("2024-01-02 00:00:00 +0100"), source: nil, values: [62.5, 90]),
            .init(start: timestamp("2024-01-01 00:00:00 +0100"), end: timestamp("2024-01-02 00:00:00 +0100"), source: "Ann's \"Watch\", 2", values: [1.0 / 3, nil]),
            .init(start: timestamp("2024-01-02 00:00:00 +0100"), end: timestamp("2024-01-03 00:00:00 +0100"), source: nil, values: [125, 130]),
        ])

    static func text(_ format: StatisticsWriter.Format, _ table: StatisticsTable = table) -> String {
        String(decoding: StatisticsWriter.bytes(table, format: format), as: UTF8.self)
    }

    @Test func csvQuotesFieldsAndEndsRecordsWithCRLF() {
        #expect(Self.text(.csv) == """
            startDate,endDate,source,average,maximum,unit\r
            2024-01-01T00:00:00+01:00,2024-01-02T00:00:00+01:00,,62.5,90,count/min\r
            2024-01-01T00:00:00+01:00,2024-01-02T00:00:00+01:00,"Ann's ""Watch"", 2",0.333333333,,count/min\r
            2024-01-02T00:00:00+01:00,2024-01-03T00:00:00+01:00,,125,130,count/min\r

            """)
    }

    @Test func jsonAndNDJSONHoldTheSameObjects() {
        let ndjson = """
            {"startDate":"2024-01-01T00:00:00+01:00","endDate":"2024-01-02T00:00:00+01:00","source":null,"average":62.5,"maximum":90,"unit":"count/min"}
            {"startDate":"2024-01-01T00:00:00+01:00","endDate":"2024-01-02T00:00:00+01:00","source":"Ann's \\"Watch\\", 2","average":0.333333333,"maximum":null,"unit":"count/min"}
            {"startDate":"2024-01-02T00:00:00+01:00","endDate":"2024-01-03T00:00:00+01:00","source":null,"average":125,"maximum":130,"unit":"count/min"}

            """
        #expect(Self.text(.ndjson) == ndjson)
        let lines = ndjson.split(separator: "\n")
        #expect(Self.text(.json) == "[\n" + lines.joined(separator: ",\n") + "\n]\n")
    }

    @Test func textShowsEveryColumnABarForTheFirstAndTheSourcesRows() {
        #expect(Self.text(.text) == """
            START                           AVERAGE       MAXIMUM  (count/min)
            2024-01-01T00:00:00+01:00          62.5            90  \(String(repeating: "█", count: 20))
              Ann's "Watch", 2                 0.33              
            2024-01-02T00:00:00+01:00           125           130  \(String(repeating: "█", count: 40))

            """)
    }

    @Test func oneColumnKeepsTheCompactHeader() {
        let one = StatisticsTable(
            columns: ["sum"], unit: "count", isSeparatedBySource: false,
            rows: [.init(start: Self.timestamp("2024-01-01 00:00:00 +0100"), end: Self.timestamp("2024-01-02 00:00:00 +0100"), source: nil, values: [17933])])
        #expect(Self.text(.text, one) == "START                      SUM (count)\n2024-01-01T00:00:00+01:00         17933  \(String(repeating: "█", count: 40))\n")
    }

    @Test func anEmptyTableIsAnEmptyArrayAndAHeaderOnly() {
        let empty = StatisticsTable(columns: ["sum"], unit: "count", isSeparatedBySource: false, rows: [])
        #expect(Self.text(.json, empty) == "[\n\n]\n")
        #expect(Self.text(.ndjson, empty) == "")
        #expect(Self.text(.csv, empty) == "startDate,endDate,sum,unit\r\n")
    }
}
