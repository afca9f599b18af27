/// Reads a JSON object's members (or an array's elements) as validated raw text slices, for the
/// dialects' own formats: dsbridge's `{"data":…}` arguments and WebViewJavascriptBridge messages.
enum RawMembers {
    static func object(_ text: String, maxDepth: Int) throws(BridgeError) -> [String: RawJSON] {
        try withScanner(text, maxDepth: maxDepth) { scanner throws in
            guard try scanner.peek() == UInt8(ascii: "{") else { throw BridgeError(.invalidMessage, "expected a JSON object") }
            var members: [String: RawJSON] = [:]
            try scanner.scanObject(depth: 1) { scanner, key, _ throws(JSONSyntaxError) in members[key] = try slice(&scanner, depth: 1) }
            return members
        }
    }

    static func array(_ text: String, maxDepth: Int) throws(BridgeError) -> [RawJSON] {
        try withScanner(text, maxDepth: maxDepth) { scanner throws in
            guard try scanner.peek() == UInt8(ascii: "[") else { throw BridgeError(.invalidMessage, "expected a JSON array") }
            var elements: [RawJSON] = []
            try scanner.scanArray(depth: 1) { scanner, _ throws(JSONSyntaxError) in elements.append(try slice(&scanner, depth: 1)) }
            return elements
        }
    }

    private static func slice(_ scanner: inout JSONScanner, depth: Int) throws(JSONSyntaxError) -> RawJSON {
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
