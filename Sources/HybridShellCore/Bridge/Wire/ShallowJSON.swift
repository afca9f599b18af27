/// Splits a JSON array into its elements, or an object into its members, as text slices, without
/// recursion and without validating what is inside them.
///
/// The legacy dialects hand native several messages in one text (a WebViewJavascriptBridge queue).
/// Splitting first lets each message be validated on its own, with the configured limits, so one
/// malformed or too-deep message gets its own error and never takes its valid neighbours down;
/// and because nothing here recurses, a message nested 10⁵ levels deep costs a loop, not the stack.
enum ShallowJSON {
    struct Malformed: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    /// The elements of a top-level array.
    static func elements(ofArray text: String) throws(Malformed) -> [Substring] {
        try split(text, open: UInt8(ascii: "["), close: UInt8(ascii: "]")).map(\.value)
    }

    /// The members of a top-level object, in order (duplicates kept): each key as its raw,
    /// undecoded text between the quotes, and its value's text.
    static func members(ofObject text: String) throws(Malformed) -> [(key: Substring, value: Substring)] {
        try split(text, open: UInt8(ascii: "{"), close: UInt8(ascii: "}")).map { ($0.key ?? "", $0.value) }
    }

    private static func split(_ text: String, open: UInt8, close: UInt8) throws(Malformed) -> [(key: Substring?, value: Substring)] {
        let utf8 = text.utf8
        var index = utf8.startIndex
        func skipSpace() {
            while index < utf8.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(utf8[index]) { index = utf8.index(after: index) }
        }
        /// Moves past a string whose opening quote is at `index`; false if it never ends.
        func skipString() -> Bool {
            index = utf8.index(after: index)
            while index < utf8.endIndex {
                let byte = utf8[index]
                index = utf8.index(after: index)
                if byte == UInt8(ascii: "\\") {
                    guard index < utf8.endIndex else { return false }
                    index = utf8.index(after: index)
                } else if byte == UInt8(ascii: "\"") {
                    return true
                }
            }
            return false
        }
        skipSpace()
        guard index < utf8.endIndex, utf8[index] == open else {
            throw Malformed(description: open == UInt8(ascii: "[") ? "expected a JSON array" : "expected a JSON object")
        }
        index = utf8.index(after: index)
        var parts: [(key: Substring?, value: Substring)] = []
        skipSpace()
        if index < utf8.endIndex, utf8[index] == close {
            index = utf8.index(after: index)
            skipSpace()
            guard index == utf8.endIndex else { throw Malformed(description: "unexpected text after the JSON value") }
            return parts
        }
        while true {
            skipSpace()
            var key: Substring?
            if open == UInt8(ascii: "{") {
                guard index < utf8.endIndex, utf8[index] == UInt8(ascii: "\"") else { throw Malformed(description: "expected a key") }
                let keyStart = utf8.index(after: index)
                guard skipString() else { throw Malformed(description: "unterminated string") }
                key = text[keyStart..<utf8.index(before: index)]
                skipSpace()
                guard index < utf8.endIndex, utf8[index] == UInt8(ascii: ":") else { throw Malformed(description: "expected ':'") }
                index = utf8.index(after: index)
                skipSpace()
            }
            let start = index
            var depth = 0
            scan: while index < utf8.endIndex {
                switch utf8[index] {
                case UInt8(ascii: "\""):
                    guard skipString() else { throw Malformed(description: "unterminated string") }
                    continue scan
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    if depth == 0 { break scan }
                    depth -= 1
                case UInt8(ascii: ","):
                    if depth == 0 { break scan }
                default:
                    break
                }
                index = utf8.index(after: index)
            }
            guard index < utf8.endIndex else { throw Malformed(description: "unexpected end of JSON text") }
            var end = index
            while end > start, [0x20, 0x09, 0x0A, 0x0D].contains(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
            guard start < end else { throw Malformed(description: "expected a value") }
            parts.append((key, text[start..<end]))
            let byte = utf8[index]
            index = utf8.index(after: index)
            if byte == UInt8(ascii: ",") { continue }
            guard byte == close else { throw Malformed(description: "mismatched brackets") }
            skipSpace()
            guard index == utf8.endIndex else { throw Malformed(description: "unexpected text after the JSON value") }
            return parts
        }
    }
}
