import HybridShell
/// The little YAML that TAP diagnostic blocks need, written so any YAML 1.1 or 1.2 parser reads
/// back exactly the strings that went in.
///
/// Strings are double-quoted with escapes, except multi-line text made only of printable
/// characters, which is written as a literal block (`|-`) so stacks stay readable.
indirect enum YAMLValue {
    case string(String)
    case number(Double)
    case bool(Bool)
    case sequence([YAMLValue])
    /// Keys in the order given; keys are plain identifiers chosen by the reporter.
    case mapping([(String, YAMLValue)])

    /// The lines of a block mapping (or sequence) at `indent`.
    func lines(indent: String) -> [String] {
        switch self {
        case .mapping(let members):
            return members.flatMap { key, value in value.entry(prefix: indent + key + ":", childIndent: indent + "  ") }
        case .sequence(let items):
            return items.flatMap { item -> [String] in
                if case .mapping(let members) = item, !members.isEmpty {
                    // The first key goes on the dash's line, the others line up under it.
                    var lines = item.lines(indent: indent + "  ")
                    lines[0] = indent + "- " + lines[0].dropFirst(indent.count + 2)
                    return lines
                }
                return item.entry(prefix: indent + "-", childIndent: indent + "  ")
            }
        default:
            return entry(prefix: indent + "-", childIndent: indent + "  ")
        }
    }

    /// `prefix` (`key:` or `-`) followed by this value, inline or on the lines below.
    private func entry(prefix: String, childIndent: String) -> [String] {
        switch self {
        case .string(let text):
            if YAMLValue.fitsLiteralBlock(text) {
                return [prefix + " |-"] + text.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { $0.isEmpty ? "" : childIndent + $0 }
            }
            return [prefix + " " + YAMLValue.quoted(text)]
        case .number(let value):
            return [prefix + " " + JSONValue.numberText(value)]
        case .bool(let value):
            return [prefix + " " + (value ? "true" : "false")]
        case .sequence(let items) where items.isEmpty:
            return [prefix + " []"]
        case .mapping(let members) where members.isEmpty:
            return [prefix + " {}"]
        case .sequence, .mapping:
            return [prefix] + lines(indent: childIndent)
        }
    }

    /// A double-quoted YAML string: `\\`, `\"`, and escapes for line breaks and every character
    /// YAML does not allow as is (controls, U+FEFF, U+FFFE, U+FFFF) or that YAML 1.1 reads as a
    /// line break (U+0085, U+2028, U+2029).
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\0": out += "\\0"
            default:
                if isPlain(scalar) {
                    out.unicodeScalars.append(scalar)
                } else if scalar.value <= 0xFF {
                    out += "\\x" + hex(scalar.value, width: 2)
                } else if scalar.value <= 0xFFFF {
                    out += "\\u" + hex(scalar.value, width: 4)
                } else {
                    out += "\\U" + hex(scalar.value, width: 8)
                }
            }
        }
        return out + "\""
    }

    /// Multi-line text a literal block reproduces exactly: plain characters and `\n` only, a first
    /// line that starts with neither a space nor a tab (it sets the block's indentation), and no
    /// final line break (`|-` strips it).
    static func fitsLiteralBlock(_ text: String) -> Bool {
        guard text.contains("\n"), !text.hasSuffix("\n"), let first = text.unicodeScalars.first,
              first != " ", first != "\n"
        else { return false }
        return text.unicodeScalars.allSatisfy { $0 == "\n" || isPlain($0) }
    }

    /// Printable in YAML 1.2 and not a line break in YAML 1.1.
    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0x7E, 0xA0...0x2027, 0x202A...0xD7FF, 0xE000...0xFEFE, 0xFF00...0xFFFD, 0x10000...: true
        default: false
        }
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
