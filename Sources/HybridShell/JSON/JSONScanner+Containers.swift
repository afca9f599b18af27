extension JSONScanner {
    /// The one loop over a JSON object's members, shared by every reader of JSON in the library
    /// (values, validation, raw slices, key lines, the bridge's envelopes): it checks the nesting
    /// limit, each key (duplicates and forbidden keys, after unescaping) and the punctuation.
    /// `member` is called with the cursor on the member's value and must move past it.
    /// - Parameter depth: the object's own depth (1 for a top-level object).
    mutating func scanObject(depth: Int,
                             _ member: (inout JSONScanner, _ key: String, _ keyOffset: Int) throws(JSONSyntaxError) -> Void) throws(JSONSyntaxError) {
        guard depth <= limits.maxDepth else { throw error(.tooDeep(limit: limits.maxDepth)) }
        try expect(UInt8(ascii: "{"))
        var keys = Set<String>()
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") { index += 1; return }
        while true {
            skipWhitespace()
            let keyOffset = index
            guard try peek() == UInt8(ascii: "\"") else { throw unexpected() }
            let key = try scanString(decode: true)!
            try check(key: key, at: keyOffset, isDuplicate: !keys.insert(key).inserted)
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            try member(&self, key, keyOffset)
            skipWhitespace()
            if try peek() == UInt8(ascii: ",") { index += 1; continue }
            try expect(UInt8(ascii: "}"))
            return
        }
    }

    /// The one loop over a JSON array's elements (see ``scanObject(depth:_:)``). `element` gets the
    /// element's index with the cursor on it and must move past it.
    mutating func scanArray(depth: Int, _ element: (inout JSONScanner, _ index: Int) throws(JSONSyntaxError) -> Void) throws(JSONSyntaxError) {
        guard depth <= limits.maxDepth else { throw error(.tooDeep(limit: limits.maxDepth)) }
        try expect(UInt8(ascii: "["))
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") { index += 1; return }
        var count = 0
        while true {
            skipWhitespace()
            try element(&self, count)
            count += 1
            skipWhitespace()
            if try peek() == UInt8(ascii: ",") { index += 1; continue }
            try expect(UInt8(ascii: "]"))
            return
        }
    }
}
