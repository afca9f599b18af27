/// Reads a JSON object's members (or an array's elements) as validated raw text slices, for the
/// dialects' own formats: dsbridge's `{"data":…}` arguments and WebViewJavascriptBridge messages.
enum RawMembers {
    static func object(_ text: String, maxDepth: Int) throws(BridgeError) -> [String: RawJSON] {
        try withScanner(text, maxDepth: maxDepth) { scanner throws in
            guard try scanner.peek() == UInt8(ascii: "{") else { throw BridgeError(.invalidMessage, "expected a JSON object") }
            scanner.index += 1
            var members: [String: RawJSON] = [:]
            scanner.skipWhitespace()
            if try scanner.peek() == UInt8(ascii: "}") { scanner.index += 1; return members }
            while true {
                scanner.skipWhitespace()
                let offset = scanner.index
                guard try scanner.peek() == UInt8(ascii: "\"") else { throw scanner.unexpected() }
                let key = try scanner.scanString(decode: true)!
                try scanner.check(key: key, at: offset, isDuplicate: members[key] != nil)
                scanner.skipWhitespace()
                try scanner.expect(UInt8(ascii: ":"))
                scanner.skipWhitespace()
                members[key] = try slice(&scanner, depth: 1)
                scanner.skipWhitespace()
                if try scanner.peek() == UInt8(ascii: ",") { scanner.index += 1; continue }
                try scanner.expect(UInt8(ascii: "}"))
                return members
            }
        }
    }

    static func array(_ text: String, maxDepth: Int) throws(BridgeError) -> [RawJSON] {
        try withScanner(text, maxDepth: maxDepth) { scanner throws in
            guard try scanner.peek() == UInt8(ascii: "[") else { throw BridgeError(.invalidMessage, "expected a JSON array") }
            scanner.index += 1
            var elements: [RawJSON] = []
            scanner.skipWhitespace()
            if try scanner.peek() == UInt8(ascii: "]") { scanner.index += 1; return elements }
            while true {
                scanner.skipWhitespace()
                elements.append(try slice(&scanner, depth: 1))
                scanner.skipWhitespace()
                if try scanner.peek() == UInt8(ascii: ",") { scanner.index += 1; continue }
                try scanner.expect(UInt8(ascii: "]"))
                return elements
            }
        }
    }

    private static func slice(_ scanner: inout JSONScanner, depth: Int) throws -> RawJSON {
        let start = scanner.index
        try scanner.skipValue(depth: depth)
        return RawJSON(unchecked: String(decoding: UnsafeBufferPointer(rebasing: scanner.bytes[start..<scanner.index]), as: UTF8.self))
    }

    private static func withScanner<R>(_ text: String, maxDepth: Int, _ body: (inout JSONScanner) throws -> R) throws(BridgeError) -> R {
        var text = text
        var outcome: Result<R, any Error>!
        text.withUTF8 { bytes in
            var scanner = JSONScanner(bytes: bytes, limits: .init(maxDepth: maxDepth + 1))
            outcome = Result {
                scanner.skipWhitespace()
                let value = try body(&scanner)
                scanner.skipWhitespace()
                guard scanner.index == bytes.count else { throw scanner.error(.trailingCharacters) }
                return value
            }
        }
        switch outcome! {
        case .success(let value): return value
        case .failure(let error as BridgeError): throw error
        case .failure(let error as JSONSyntaxError):
            // The scanner counts the outer container too; name the limit the caller configured.
            if case .tooDeep = error.kind { throw BridgeError.tooDeep(limit: maxDepth, at: error.offset) }
            throw BridgeError(.invalidMessage, "invalid JSON: \(error)")
        case .failure(let error): throw BridgeError(.invalidMessage, "invalid JSON: \(error)")
        }
    }
}
