import Foundation

/// A strict RFC 8259 parser: no trailing commas, comments, `NaN` or single quotes; duplicate keys
/// and `__proto__` keys rejected (JavaScript and Swift disagree on which duplicate wins, and
/// `__proto__` changes an object's prototype when a page parses it); a nesting limit.
///
/// The same parser validates and dispatches bridge messages, so what was checked is what runs.
public struct JSONParser: Sendable {
    public struct Limits: Sendable, Equatable {
        public var maxDepth: Int
        public var rejectDuplicateKeys: Bool
        public var forbiddenKeys: Set<String> {
            didSet { forbiddenLengths = Self.lengths(of: forbiddenKeys) }
        }
        /// The UTF-8 lengths of the forbidden keys: a key of another length is let through without
        /// hashing it (every key of every object is checked).
        private var forbiddenLengths: UInt64

        /// `__proto__` alone: the default, made once (the bridge makes limits per message, and a set
        /// literal is built, hashed and freed each time it is evaluated).
        public static let prototypeKey: Set<String> = ["__proto__"]

        public init(maxDepth: Int = 512, rejectDuplicateKeys: Bool = true, forbiddenKeys: Set<String> = Limits.prototypeKey) {
            self.maxDepth = maxDepth
            self.rejectDuplicateKeys = rejectDuplicateKeys
            self.forbiddenKeys = forbiddenKeys
            forbiddenLengths = Self.lengths(of: forbiddenKeys)
        }

        func forbids(_ key: String) -> Bool {
            let length = key.utf8.count
            guard length >= 64 || forbiddenLengths & (1 << UInt64(length)) != 0 else { return false }
            return forbiddenKeys.contains(key)
        }

        private static func lengths(of keys: Set<String>) -> UInt64 {
            keys.reduce(0) { $0 | ($1.utf8.count >= 64 ? 0 : 1 << UInt64($1.utf8.count)) }
        }
    }

    public var limits: Limits

    public init(limits: Limits = .init()) {
        self.limits = limits
    }

    /// Parses one JSON value that makes up the whole text (surrounding whitespace allowed).
    public func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try JSONParser.withBytes(of: text) { bytes throws(JSONSyntaxError) in
            var scanner = JSONScanner(bytes: bytes, limits: limits)
            return try scanner.parseDocument()
        }
    }

    /// Checks that `text` is one valid JSON value without building it.
    public func validate(_ text: String) throws(JSONSyntaxError) {
        try JSONParser.withBytes(of: text) { bytes throws(JSONSyntaxError) in
            var scanner = JSONScanner(bytes: bytes, limits: limits)
            scanner.skipWhitespace()
            try scanner.skipValue(depth: 0)
            scanner.skipWhitespace()
            guard scanner.index == bytes.count else { throw scanner.error(.trailingCharacters) }
        }
    }
}

extension JSONParser {
    /// `String.withUTF8` with a typed error (its own `rethrows` erases the type).
    static func withBytes<R>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> R) throws(JSONSyntaxError) -> R {
        var text = text
        var result: Result<R, JSONSyntaxError>?
        text.withUTF8 { bytes in
            result = Result { () throws(JSONSyntaxError) in try body(bytes) }
        }
        return try result!.get()
    }
}

/// The scanner behind ``JSONParser`` and the bridge's envelope reader. It can build values or
/// only skip over them (validating as it goes), so a large payload is checked without being copied.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let limits: JSONParser.Limits
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>, limits: JSONParser.Limits, index: Int = 0) {
        self.bytes = bytes
        self.limits = limits
        self.index = index
    }

    func error(_ kind: JSONSyntaxError.Kind, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(kind: kind, offset: offset ?? index)
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        guard index == bytes.count else { throw error(.trailingCharacters) }
        return value
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    func peek() throws(JSONSyntaxError) -> UInt8 {
        guard index < bytes.count else { throw error(.unexpectedEnd) }
        return bytes[index]
    }

    func unexpected() -> JSONSyntaxError {
        guard index < bytes.count else { return error(.unexpectedEnd) }
        let byte = bytes[index]
        let shown = byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : String(format: "0x%02X", byte)
        return error(.unexpectedCharacter(shown))
    }

    mutating func expect(_ byte: UInt8) throws(JSONSyntaxError) {
        guard index < bytes.count, bytes[index] == byte else { throw unexpected() }
        index += 1
    }

    // MARK: Building values

    mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        switch try peek() {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try scanString(decode: true)!)
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return .number(try scanNumber(decode: true))
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        var members: [String: JSONValue] = [:]
        try scanObject(depth: depth) { scanner, key, _ throws(JSONSyntaxError) in
            members[key] = try scanner.parseValue(depth: depth)
        }
        return .object(members)
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        var items: [JSONValue] = []
        try scanArray(depth: depth) { scanner, _ throws(JSONSyntaxError) in
            items.append(try scanner.parseValue(depth: depth))
        }
        return .array(items)
    }

    func check(key: String, at offset: Int, isDuplicate: Bool) throws(JSONSyntaxError) {
        if limits.forbids(key) { throw error(.forbiddenKey(key), at: offset) }
        if isDuplicate, limits.rejectDuplicateKeys { throw error(.duplicateKey(key), at: offset) }
    }

    // MARK: Skipping (validating) values

    /// Validates the value at the cursor and moves past it.
    mutating func skipValue(depth: Int) throws(JSONSyntaxError) {
        switch try peek() {
        case UInt8(ascii: "{"): try skipObject(depth: depth + 1)
        case UInt8(ascii: "["): try skipArray(depth: depth + 1)
        case UInt8(ascii: "\""): _ = try scanString(decode: false)
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: _ = try scanNumber(decode: false)
        }
    }

    private mutating func skipObject(depth: Int) throws(JSONSyntaxError) {
        try scanObject(depth: depth) { scanner, _, _ throws(JSONSyntaxError) in try scanner.skipValue(depth: depth) }
    }

    private mutating func skipArray(depth: Int) throws(JSONSyntaxError) {
        try scanArray(depth: depth) { scanner, _ throws(JSONSyntaxError) in try scanner.skipValue(depth: depth) }
    }
}
