/// Parses JSON and records the line of every key (dotted paths; array elements by index), for
/// configuration errors that point at a line.
enum JSONKeyLines {
    static func parse(_ text: String) throws(JSONSyntaxError) -> (JSONValue, [String: Int]) {
        try JSONParser.withBytes(of: text) { bytes throws(JSONSyntaxError) in
            var walker = Walker(scanner: JSONScanner(bytes: bytes, limits: .init()))
            walker.scanner.skipWhitespace()
            let value = try walker.value(path: [], depth: 0)
            walker.scanner.skipWhitespace()
            guard walker.scanner.index == bytes.count else { throw walker.scanner.error(.trailingCharacters) }
            return (value, walker.lines)
        }
    }

    private struct Walker {
        var scanner: JSONScanner
        var lines: [String: Int] = [:]
        var line = 1
        var counted = 0

        mutating func lineAt(_ offset: Int) -> Int {
            while counted < offset {
                if scanner.bytes[counted] == 0x0A { line += 1 }
                counted += 1
            }
            return line
        }

        mutating func value(path: [String], depth: Int) throws(JSONSyntaxError) -> JSONValue {
            switch try scanner.peek() {
            case UInt8(ascii: "{"):
                guard depth < scanner.limits.maxDepth else { throw scanner.error(.tooDeep(limit: scanner.limits.maxDepth)) }
                scanner.index += 1
                var members: [String: JSONValue] = [:]
                scanner.skipWhitespace()
                if try scanner.peek() == UInt8(ascii: "}") { scanner.index += 1; return .object(members) }
                while true {
                    scanner.skipWhitespace()
                    let offset = scanner.index
                    guard try scanner.peek() == UInt8(ascii: "\"") else { throw scanner.unexpected() }
                    let key = try scanner.scanString(decode: true)!
                    try scanner.check(key: key, at: offset, isDuplicate: members[key] != nil)
                    lines[(path + [key]).joined(separator: ".")] = lineAt(offset)
                    scanner.skipWhitespace()
                    try scanner.expect(UInt8(ascii: ":"))
                    scanner.skipWhitespace()
                    members[key] = try value(path: path + [key], depth: depth + 1)
                    scanner.skipWhitespace()
                    if try scanner.peek() == UInt8(ascii: ",") { scanner.index += 1; continue }
                    try scanner.expect(UInt8(ascii: "}"))
                    return .object(members)
                }
            case UInt8(ascii: "["):
                guard depth < scanner.limits.maxDepth else { throw scanner.error(.tooDeep(limit: scanner.limits.maxDepth)) }
                scanner.index += 1
                var items: [JSONValue] = []
                scanner.skipWhitespace()
                if try scanner.peek() == UInt8(ascii: "]") { scanner.index += 1; return .array(items) }
                while true {
                    scanner.skipWhitespace()
                    lines[(path + [String(items.count)]).joined(separator: ".")] = lineAt(scanner.index)
                    items.append(try value(path: path + [String(items.count)], depth: depth + 1))
                    scanner.skipWhitespace()
                    if try scanner.peek() == UInt8(ascii: ",") { scanner.index += 1; continue }
                    try scanner.expect(UInt8(ascii: "]"))
                    return .array(items)
                }
            default:
                return try scanner.parseValue(depth: depth)
            }
        }
    }
}
