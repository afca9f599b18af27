import HybridShell
/// Escaping for XML 1.0 text and attribute values.
///
/// Characters XML 1.0 cannot hold at all, even as character references (control characters
/// other than tab, line feed and carriage return; U+FFFE and U+FFFF), are written as the
/// visible text `\u{0}` so a NUL in a console message neither breaks the document nor vanishes.
enum XMLText {
    /// Element content: `&`, `<` and `>` escaped; a carriage return as `&#13;` so parsers keep it.
    static func text(_ value: String) -> String {
        escape(value, inAttribute: false)
    }

    /// A double-quoted attribute value: also `"`, and tab and line breaks as character
    /// references, which attribute-value normalisation would otherwise turn into spaces.
    static func attribute(_ value: String) -> String {
        escape(value, inAttribute: true)
    }

    private static func escape(_ value: String, inAttribute: Bool) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where inAttribute: out += "&quot;"
            case "\n" where inAttribute: out += "&#10;"
            case "\t" where inAttribute: out += "&#9;"
            case "\r": out += "&#13;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
