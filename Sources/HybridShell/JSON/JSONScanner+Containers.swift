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
        var keys = ObjectKeys()
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") { index += 1; return }
        while true {
            skipWhitespace()
            let keyOffset = index
            guard try peek() == UInt8(ascii: "\"") else { throw unexpected() }
            let key = try scanString(decode: true)!
            try check(key: key, at: keyOffset, isDuplicate: !keys.insert(key))
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

/// The keys of one object seen so far, for the duplicate check. Objects mostly have a few keys:
/// those are compared in a list (no hashing, one allocation); a set takes over past 16.
struct ObjectKeys {
    private var list: [String] = []
    private var set: Set<String>?

    /// Adds `key`; false when it was there already.
    mutating func insert(_ key: String) -> Bool {
        if set != nil { return set!.insert(key).inserted }
        if list.contains(key) { return false }
        list.append(key)
        if list.count > 16 {
            set = Set(list)
            list = []
        }
        return true
    }
}
