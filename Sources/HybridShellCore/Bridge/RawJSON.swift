import Foundation

/// JSON text that has been validated and is passed on untouched, so a page's payload comes back
/// byte-exact (lone surrogate escapes included, which a Swift `String` value could not hold).
public struct RawJSON: Sendable, Hashable, CustomStringConvertible {
    /// The JSON text.
    public var text: String { String(storage) }

    /// The text as stored: a large payload read from a bridge message is a slice of that message
    /// (``init(sharing:)``), so megabytes are not copied until someone asks for ``text``; the reply
    /// that echoes it back appends the slice straight into its own text.
    let storage: Substring

    /// Payloads at least this long (UTF-8 bytes) share the message they were read from; smaller
    /// ones get a string of their own, so a long-lived small payload does not keep a whole batch
    /// of calls alive.
    static let sharingThreshold = 64 << 10

    /// Validates `text` with the bridge's strict rules.
    public init(validating text: String, maxDepth: Int = 64) throws(BridgeError) {
        do {
            try JSONParser(limits: .init(maxDepth: maxDepth)).validate(text)
        } catch {
            throw BridgeError(.invalidMessage, "invalid JSON: \(error)")
        }
        storage = Substring(text)
    }

    /// Text known to be valid (produced by an encoder or sliced from a validated message).
    package init(unchecked text: String) {
        storage = Substring(text)
    }

    /// A validated slice of a message, kept without a copy.
    init(sharing slice: Substring) {
        storage = slice
    }

    /// The text's length in UTF-8 bytes, without copying a shared slice.
    var utf8Count: Int { storage.utf8.count }

    /// Encodes a value with `JSONEncoder`.
    public init<T: Encodable>(encoding value: T) throws(BridgeError) {
        if let raw = value as? RawJSON { self = raw; return }
        if let json = value as? JSONValue { self.init(unchecked: json.jsonText); return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw BridgeError(.handlerError, "the result cannot be encoded as JSON: \(error)")
        }
        self.init(unchecked: String(decoding: data, as: UTF8.self))
    }

    public static let null = RawJSON(unchecked: "null")

    /// Decodes with `JSONDecoder` (after the strict validation this text already passed).
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws(BridgeError) -> T {
        if T.self == RawJSON.self { return self as! T }
        if T.self == JSONValue.self { return value as! T }
        do {
            return try JSONDecoder().decode(T.self, from: Data(storage.utf8))
        } catch let error as DecodingError {
            throw BridgeError(.invalidMessage, "the input does not match \(T.self): \(error.shortDescription)")
        } catch {
            throw BridgeError(.invalidMessage, "the input does not match \(T.self): \(error)")
        }
    }

    /// An object's members as raw text, for handlers that pass parts of a payload on untouched.
    public func members() throws(BridgeError) -> [String: RawJSON] {
        try RawMembers.object(text, maxDepth: .max - 1)
    }

    /// An array's elements as raw text.
    public func elements() throws(BridgeError) -> [RawJSON] {
        try RawMembers.array(text, maxDepth: .max - 1)
    }

    /// The parsed value.
    public var value: JSONValue {
        (try? JSONParser(limits: .init(maxDepth: .max, rejectDuplicateKeys: false, forbiddenKeys: []))
            .parse(text)) ?? .null
    }

    public var description: String { text }
}

extension RawJSON: Codable {
    public init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        self.init(unchecked: value.jsonText)
    }

    public func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
    }
}
