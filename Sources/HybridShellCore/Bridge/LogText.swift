/// Page text made safe for one line of the shell's log (the built-in `log` handler): control
/// characters — newlines, ANSI escape sequences' ESC, C1 controls, line and paragraph separators —
/// are written as escapes (`\n`, `\u{1B}`), so a page cannot forge log lines or drive the terminal,
/// and the text is capped at `limit` characters.
package enum LogText {
    static let defaultLimit = 4096

    package static func sanitized(_ text: String, limit: Int = defaultLimit) -> String {
        var output = ""
        var count = 0
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard count < limit else {
                var rest = 1
                while scalars.next() != nil { rest += 1 }
                output += "… (\(rest) more characters)"
                return output
            }
            count += 1
            switch scalar {
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\\": output += "\\\\"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || scalar.value == 0x2028 || scalar.value == 0x2029:
                output += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
