/// Splits an NSPredicate format string into tokens, each with its 1-based column.
struct PredicateLexer {
    enum Token: Equatable {
        case identifier(String)
        case keyword(String)  // upper-cased reserved word
        case string(String)
        case number(Double, String)
        case symbol(String)  // operators and punctuation
        case variable(String)
        case formatArgument(String)
        case end
    }

    struct Located {
        var token: Token
        var column: Int
    }

    static let reserved: Set<String> = [
        "AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI", "MATCHES",
        "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF", "TRUE", "YES", "FALSE", "NO",
        "FIRST", "LAST", "SIZE", "ANYKEY", "SUBQUERY", "FETCH", "CAST", "TRUEPREDICATE", "FALSEPREDICATE",
        "UTI-CONFORMS-TO", "UTI-EQUALS",
    ]

    static func tokenize(_ text: String) throws -> [Located] {
        let chars = Array(text.unicodeScalars)
        var tokens: [Located] = []
        var i = 0
        func error(_ message: String, _ at: Int) -> QueryPredicateError {
            QueryPredicateError(message, column: at + 1, source: text)
        }
        while i < chars.count {
            let c = chars[i]
            if c == " " || c == "\t" || c == "\n" || c == "\r" {
                i += 1
                continue
            }
            let start = i
            if c == "\"" || c == "'" {
                var value = String.UnicodeScalarView()
                i += 1
                var closed = false
                while i < chars.count {
                    let d = chars[i]
                    if d == c {
                        closed = true
                        i += 1
                        break
                    }
                    if d == "\\" && i + 1 < chars.count {
                        let e = chars[i + 1]
                        switch e {
                        case "n": value.append("\n")
                        case "t": value.append("\t")
                        case "r": value.append("\r")
                        case "u":
                            guard i + 5 < chars.count,
                                let code = UInt32(String(String.UnicodeScalarView(chars[(i + 2)...(i + 5)])), radix: 16),
                                let scalar = Unicode.Scalar(code)
                            else { throw error("invalid \\u escape", i) }
                            value.append(scalar)
                            i += 4
                        default: value.append(e)
                        }
                        i += 2
                        continue
                    }
                    value.append(d)
                    i += 1
                }
                guard closed else { throw error("unterminated string", start) }
                tokens.append(Located(token: .string(String(value)), column: start + 1))
                continue
            }
            if let end = bareDateEnd(chars, from: i) {
                // `startDate >= 2024-06-01` reads as people mean it (NSPredicate would subtract):
                // an ISO 8601 date is taken as if it had been quoted.
                tokens.append(Located(token: .string(String(String.UnicodeScalarView(chars[i..<end]))), column: start + 1))
                i = end
                continue
            }
            if c.properties.numericType != nil && ("0"..."9").contains(c) || (c == "." && i + 1 < chars.count && ("0"..."9").contains(chars[i + 1])) {
                var j = i
                while j < chars.count, ("0"..."9").contains(chars[j]) || chars[j] == "." || chars[j] == "e" || chars[j] == "E"
                    || ((chars[j] == "-" || chars[j] == "+") && j > i && (chars[j - 1] == "e" || chars[j - 1] == "E"))
                    || chars[j] == "x" || (chars[j].properties.isASCIIHexDigit && j > i + 1 && chars[i + 1] == "x")
                {
                    j += 1
                }
                let literal = String(String.UnicodeScalarView(chars[i..<j]))
                let value: Double?
                if literal.hasPrefix("0x") {
                    value = UInt64(literal.dropFirst(2), radix: 16).map(Double.init)
                } else {
                    value = Double(literal)
                }
                guard let value else { throw error("invalid number '\(literal)'", start) }
                // A literal beyond Double's range would read as infinity, which no predicate can
                // print back (found by Scripts/fuzz.sh predicate).
                guard value.isFinite else { throw error("number out of range '\(literal.prefix(40))'", start) }
                tokens.append(Located(token: .number(value, literal), column: start + 1))
                i = j
                continue
            }
            if c.properties.isAlphabetic || c == "_" || c == "@" || c == "#" {
                var j = i + 1
                while j < chars.count, chars[j].properties.isAlphabetic || chars[j].properties.numericType != nil
                    || chars[j] == "_" || (chars[j] == "-" && j + 1 < chars.count && chars[j + 1].properties.isAlphabetic
                        && String(String.UnicodeScalarView(chars[i..<j])).uppercased().hasPrefix("UTI"))
                {
                    j += 1
                }
                var word = String(String.UnicodeScalarView(chars[i..<j]))
                i = j
                if word.hasPrefix("#") {
                    // "#word" escapes a reserved word as a key path component.
                    word.removeFirst()
                    tokens.append(Located(token: .identifier(word), column: start + 1))
                } else if reserved.contains(word.uppercased()) {
                    tokens.append(Located(token: .keyword(word.uppercased()), column: start + 1))
                } else {
                    tokens.append(Located(token: .identifier(word), column: start + 1))
                }
                continue
            }
            if c == "$" || c == "%" {
                var j = i + 1
                while j < chars.count, chars[j].properties.isAlphabetic || chars[j] == "@" || chars[j] == "_" { j += 1 }
                let word = String(String.UnicodeScalarView(chars[i..<j]))
                tokens.append(Located(token: c == "$" ? .variable(word) : .formatArgument(word), column: start + 1))
                i = j
                continue
            }
            let two = i + 1 < chars.count ? String(String.UnicodeScalarView([c, chars[i + 1]])) : ""
            if ["==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||", "**"].contains(two) {
                tokens.append(Located(token: .symbol(two), column: start + 1))
                i += 2
                continue
            }
            if "=<>!(){},.[]+-*/".unicodeScalars.contains(c) {
                tokens.append(Located(token: .symbol(String(c)), column: start + 1))
                i += 1
                continue
            }
            throw error("unexpected character '\(c)'", i)
        }
        tokens.append(Located(token: .end, column: chars.count + 1))
        return tokens
    }

    /// The end of an unquoted ISO 8601 date or date-time starting at `i`
    /// (`2024-06-01`, `2024-06-01T08:00:00+02:00`, `…Z`), or nil.
    static func bareDateEnd(_ chars: [Unicode.Scalar], from i: Int) -> Int? {
        func digits(_ at: Int, _ count: Int) -> Bool {
            guard at + count <= chars.count else { return false }
            return chars[at..<at + count].allSatisfy { ("0"..."9").contains($0) }
        }
        func char(_ at: Int, _ c: Unicode.Scalar) -> Bool { at < chars.count && chars[at] == c }
        guard digits(i, 4), char(i + 4, "-"), digits(i + 5, 2), char(i + 7, "-"), digits(i + 8, 2) else { return nil }
        var j = i + 10
        guard char(j, "T"), digits(j + 1, 2), char(j + 3, ":"), digits(j + 4, 2) else { return j }
        j += 6
        if char(j, ":"), digits(j + 1, 2) {
            j += 3
            if char(j, "."), digits(j + 1, 1) {
                j += 1
                while digits(j, 1) { j += 1 }
            }
        }
        if char(j, "Z") {
            j += 1
        } else if char(j, "+") || char(j, "-"), digits(j + 1, 2) {
            if char(j + 3, ":"), digits(j + 4, 2) { j += 6 } else if digits(j + 3, 2) { j += 5 } else { j += 3 }
        }
        return j
    }
}
