/// A whole up-message: `{"v":1,"s":"<session>","m":[frames…]}`, read strictly.
///
/// The page builds the envelope by string concatenation around text it controls, so anything
/// but exactly `v`, `s`, `m` — duplicate keys, extra keys, text after the value — is refused as a
/// whole. Payloads (`d`) are validated in place and kept as slices of the original text.
struct InboundPost: Sendable, Equatable {
    let session: String
    let frames: [InboundFrame]

    struct Refusal: Error, Equatable {
        let error: BridgeError
    }

    static func read(_ text: String, maxPayload: Int, maxDepth: Int) throws(Refusal) -> InboundPost {
        try read(text, maxPayload: maxPayload, maxDepth: maxDepth) { reader throws in try reader.readEnvelope() }
    }

    /// Reads the frames array alone (`[frames…]`, the `m` of an envelope) as `session`'s: the
    /// answer to a delivery, which the relay returns without an envelope (the session is the one
    /// native delivered to). Same limits and depths as inside an envelope.
    static func read(frames text: String, session: String, maxPayload: Int, maxDepth: Int) throws(Refusal) -> InboundPost {
        try read(text, maxPayload: maxPayload, maxDepth: maxDepth) { reader throws in
            InboundPost(session: session, frames: try reader.readFramesOnly())
        }
    }

    private static func read(_ text: String, maxPayload: Int, maxDepth: Int,
                             _ body: (inout PostReader) throws -> InboundPost) throws(Refusal) -> InboundPost {
        // UTF-16 length is at most the UTF-8 length, so only a long text needs counting.
        if text.utf8.count > maxPayload + 1024, text.utf16.count > maxPayload + 1024 {
            throw Refusal(error: BridgeError(.payloadTooLarge,
                                             "the message is \(text.utf16.count) characters long; the limit is \(maxPayload)"))
        }
        var text = text
        text.makeContiguousUTF8()
        let source = text
        var outcome: Result<InboundPost, any Error>?
        func read(_ bytes: UnsafeBufferPointer<UInt8>, slicing source: String?) {
            var reader = PostReader(scanner: JSONScanner(bytes: bytes, limits: .init(maxDepth: maxDepth + 3)), source: source)
            outcome = Result { try body(&reader) }
        }
        // The reader slices large payloads out of `source` itself (see `RawJSON.init(sharing:)`);
        // were it not contiguous after all, a copy is read and nothing shared.
        source.utf8.withContiguousStorageIfAvailable { read($0, slicing: source) }
        if outcome == nil { text.withUTF8 { read($0, slicing: nil) } }
        switch outcome! {
        case .success(let post): return post
        case .failure(let error as JSONSyntaxError):
            // The envelope's three levels do not count: name the configured limit of the data.
            if case .tooDeep = error.kind { throw Refusal(error: BridgeError.tooDeep(limit: maxDepth, at: error.offset)) }
            throw Refusal(error: BridgeError(.invalidMessage, "\(error)"))
        case .failure(let error): throw Refusal(error: BridgeError(.invalidMessage, "\(error)"))
        }
    }
}

/// The envelope's shape is wrong (as opposed to its JSON syntax).
struct EnvelopeShapeError: Error, CustomStringConvertible {
    let description: String
}

/// Reads an envelope with the one member scanner (``JSONScanner/scanObject(depth:_:)``): the
/// envelope object is depth 1, its frames array 2, each frame 3.
private struct PostReader {
    var scanner: JSONScanner
    /// The text `scanner` reads, when large payloads may be kept as slices of it.
    let source: String?

    mutating func readEnvelope() throws -> InboundPost {
        scanner.skipWhitespace()
        guard try scanner.peek() == UInt8(ascii: "{") else { throw scanner.unexpected() }
        var version: JSONValue?
        var session: String?
        var frames: [InboundFrame]?
        var unexpected: (key: String, offset: Int)?
        try scanner.scanObject(depth: 1) { scanner, key, offset throws(JSONSyntaxError) in
            switch key {
            case "v": version = try scanner.parseValue(depth: 1)
            case "s": session = try scanner.parseValue(depth: 1).stringValue
            case "m": frames = try Self.readFrames(&scanner, source: source)
            default:
                if unexpected == nil { unexpected = (key, offset) }
                try scanner.skipValue(depth: 1)
            }
        }
        scanner.skipWhitespace()
        guard scanner.index == scanner.bytes.count else { throw scanner.error(.trailingCharacters) }
        if let unexpected {
            throw shape("unexpected envelope key \(JSONValue.quoted(unexpected.key)) at byte \(unexpected.offset) (an envelope has only v, s and m)")
        }
        guard version == .number(1) else { throw shape("the envelope's version (v) must be 1") }
        guard let session, Self.isSessionID(session) else {
            throw shape("the envelope's session (s) must be 32 lowercase hex digits")
        }
        guard let frames else { throw shape("the envelope has no frames (m)") }
        return InboundPost(session: session, frames: frames)
    }

    /// A frames array and nothing after it; its frames are depth 3, as in an envelope.
    mutating func readFramesOnly() throws -> [InboundFrame] {
        scanner.skipWhitespace()
        let frames = try Self.readFrames(&scanner, source: source)
        scanner.skipWhitespace()
        guard scanner.index == scanner.bytes.count else { throw scanner.error(.trailingCharacters) }
        return frames
    }

    /// 32 lowercase hex digits, checked on the bytes (a closure per byte through the generic
    /// `allSatisfy` cost every post a thousand instructions).
    private static func isSessionID(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count == 32 else { return false }
            for byte in bytes where !(byte &- 0x30 < 10 || byte &- 0x61 < 6) { return false }
            return true
        }
    }

    private func shape(_ message: String) -> EnvelopeShapeError {
        EnvelopeShapeError(description: message)
    }

    private static func readFrames(_ scanner: inout JSONScanner, source: String?) throws(JSONSyntaxError) -> [InboundFrame] {
        guard try scanner.peek() == UInt8(ascii: "[") else { throw scanner.unexpected() }
        var frames: [InboundFrame] = []
        try scanner.scanArray(depth: 2) { scanner, _ throws(JSONSyntaxError) in frames.append(try readFrame(&scanner, source: source)) }
        return frames
    }

    /// Reads one frame object. Syntax errors refuse the whole post; a well-formed frame with wrong
    /// members becomes `.invalid` so the rest of the batch still runs.
    private static func readFrame(_ scanner: inout JSONScanner, source: String?) throws(JSONSyntaxError) -> InboundFrame {
        guard try scanner.peek() == UInt8(ascii: "{") else {
            try scanner.skipValue(depth: 2)
            return .invalid(id: nil, reason: "a frame must be an object")
        }
        var members = FrameMembers()
        var payload: RawJSON?
        try scanner.scanObject(depth: 3) { scanner, key, _ throws(JSONSyntaxError) in
            if key == "d" {
                let start = scanner.index
                try scanner.skipValue(depth: 3)
                payload = Self.payload(scanner, from: start, source: source)
                members.notePayload()
            } else {
                members.set(key, try scanner.parseValue(depth: 3))
            }
        }
        return FrameShape.frame(members: members, payload: payload)
    }

    /// The payload the scanner just skipped over: a slice of `source` when it is large, else a
    /// string of its own. Its ends are ASCII bytes of the JSON syntax, so both are scalar-aligned.
    private static func payload(_ scanner: JSONScanner, from start: Int, source: String?) -> RawJSON {
        let count = scanner.index - start
        if count >= RawJSON.sharingThreshold, let source {
            let utf8 = source.utf8
            let lower = utf8.index(utf8.startIndex, offsetBy: start)
            return RawJSON(sharing: Substring(utf8[lower..<utf8.index(lower, offsetBy: count)]))
        }
        return RawJSON(unchecked: String(decoding: UnsafeBufferPointer(rebasing: scanner.bytes[start..<scanner.index]), as: UTF8.self))
    }
}
