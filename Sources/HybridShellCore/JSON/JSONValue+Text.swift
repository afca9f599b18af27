import Foundation

extension JSONValue {
    /// Compact JSON text with sorted keys. U+2028 and U+2029 are escaped so the text is also a
    /// valid JavaScript literal; `/` is not escaped.
    public var jsonText: String {
        var out = ""
        write(to: &out)
        return out
    }

    /// Parses strict JSON text (RFC 8259) with ``JSONParser``'s default limits.
    public init(parsing text: String, limits: JSONParser.Limits = .init()) throws(JSONSyntaxError) {
        self = try JSONParser(limits: limits).parse(text)
    }

    func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .number(let value): out += JSONValue.numberText(value)
        case .string(let value): JSONValue.writeQuoted(value, to: &out)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                JSONValue.writeQuoted(key, to: &out)
                out += ":"
                members[key]!.write(to: &out)
            }
            out += "}"
        }
    }

    /// JavaScript's number formatting for the values JSON can hold: integers without a fraction,
    /// non-finite numbers as `null` (what `JSON.stringify` does).
    public static func numberText(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e21 {
            if let exact = Int64(exactly: value) { return String(exact) }
        }
        // Swift writes "1e-07" where JavaScript writes "1e-7".
        return "\(value)".replacingOccurrences(of: "e-0", with: "e-").replacingOccurrences(of: "e+0", with: "e+")
    }

    static func writeQuoted(_ string: String, to out: inout String) {
        // Most strings (handler names, keys, plain text) need no escape at all: appended whole
        // instead of scalar by scalar. 0xE2 leads U+2028 and U+2029 (and other characters, which
        // then take the careful path).
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0xE2 }) {
            out += "\""
            out += string
            out += "\""
            return
        }
        out += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    out += "\\u00"
                    out += hexDigits[Int(scalar.value >> 4)]
                    out += hexDigits[Int(scalar.value & 0xF)]
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// A Swift string as a JSON string literal.
    public static func quoted(_ string: String) -> String {
        var out = ""
        writeQuoted(string, to: &out)
        return out
    }
}

private let hexDigits = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
