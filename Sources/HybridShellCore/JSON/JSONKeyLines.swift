/// Parses JSON and records the line of every key (dotted paths; array elements by index), for
/// configuration errors that point at a line.
enum JSONKeyLines {
    static func parse(_ text: String) throws(JSONSyntaxError) -> (JSONValue, [String: Int]) {
        try JSONParser.withBytes(of: text) { bytes throws(JSONSyntaxError) in
            var scanner = JSONScanner(bytes: bytes, limits: .init())
            var walker = Walker(bytes: bytes)
            scanner.skipWhitespace()
            let value = try walker.value(&scanner, path: [], depth: 0)
            scanner.skipWhitespace()
            guard scanner.index == bytes.count else { throw scanner.error(.trailingCharacters) }
            return (value, walker.lines)
        }
    }

    private struct Walker {
        let bytes: UnsafeBufferPointer<UInt8>
        var lines: [String: Int] = [:]
        var line = 1
        var counted = 0

        mutating func lineAt(_ offset: Int) -> Int {
            while counted < offset {
                if bytes[counted] == 0x0A { line += 1 }
                counted += 1
            }
            return line
        }

        mutating func value(_ scanner: inout JSONScanner, path: [String], depth: Int) throws(JSONSyntaxError) -> JSONValue {
            switch try scanner.peek() {
            case UInt8(ascii: "{"):
                var members: [String: JSONValue] = [:]
                try scanner.scanObject(depth: depth + 1) { scanner, key, offset throws(JSONSyntaxError) in
                    lines[(path + [key]).joined(separator: ".")] = lineAt(offset)
                    members[key] = try value(&scanner, path: path + [key], depth: depth + 1)
                }
                return .object(members)
            case UInt8(ascii: "["):
                var items: [JSONValue] = []
                try scanner.scanArray(depth: depth + 1) { scanner, index throws(JSONSyntaxError) in
                    lines[(path + [String(index)]).joined(separator: ".")] = lineAt(scanner.index)
                    items.append(try value(&scanner, path: path + [String(index)], depth: depth + 1))
                }
                return .array(items)
            default:
                return try scanner.parseValue(depth: depth)
            }
        }
    }
}
