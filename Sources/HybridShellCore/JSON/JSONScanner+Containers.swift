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
/// those are compared one by one (no hashing); a set takes over past 16.
struct ObjectKeys {
    // The first eight keys are kept inline: an array would be allocated, and grown, for every
    // object read (each frame and each payload object), which showed as a tenth of a native call's
    // instructions in the UI process. A key of up to 15 UTF-8 bytes is a small string, itself inline.
    private var first: (String, String, String, String, String, String, String, String) = ("", "", "", "", "", "", "", "")
    private var count = 0
    private var rest: [String] = []
    private var set: Set<String>?

    /// Adds `key`; false when it was there already.
    mutating func insert(_ key: String) -> Bool {
        if set != nil { return set!.insert(key).inserted }
        let count = self.count
        let added = withUnsafeMutablePointer(to: &first) { tuple in
            tuple.withMemoryRebound(to: String.self, capacity: 8) { inline -> Bool in
                for index in 0..<min(count, 8) where inline[index] == key { return false }
                if count < 8 { inline[count] = key }
                return true
            }
        }
        guard added else { return false }
        if count >= 8 {
            if rest.contains(key) { return false }
            rest.append(key)
        }
        self.count += 1
        if self.count > 16 {
            var all = Set(rest)
            withUnsafePointer(to: &first) { tuple in
                tuple.withMemoryRebound(to: String.self, capacity: 8) { all.formUnion(UnsafeBufferPointer(start: $0, count: 8)) }
            }
            set = all
            rest = []
        }
        return true
    }
}
