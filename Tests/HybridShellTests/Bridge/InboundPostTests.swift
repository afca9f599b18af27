import Testing
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit

/// The envelope reader's shape checks (pure): the session id and the members a frame may have.
@Suite("Inbound posts: envelope and frame shapes")
struct InboundPostTests {
    static let session = "0123456789abcdef0123456789abcdef"

    private func read(session: String = Self.session, frames: String) throws(InboundPost.Refusal) -> InboundPost {
        try InboundPost.read("{\"v\":1,\"s\":\(JSONValue.quoted(session)),\"m\":\(frames)}", maxPayload: 4_096, maxDepth: 8)
    }

    @Test func aLowercaseHexSessionIsRead() throws {
        let post = try read(frames: #"[{"t":"cancel","id":3}]"#)
        #expect(post.session == Self.session)
        #expect(post.frames == [.cancel(id: 3)])
    }

    @Test(arguments: [
        "0123456789ABCDEF0123456789abcdef",  // uppercase
        "0123456789abcdef0123456789abcde",  // 31 digits
        "0123456789abcdef0123456789abcdef0",  // 33 digits
        "０123456789abcdef0123456789abcde",  // a fullwidth digit: a hex digit to Character, not to the relay
        "0123456789abcdeg0123456789abcdef",
    ])
    func otherSessionsAreRefused(session: String) {
        #expect(throws: InboundPost.Refusal(error: BridgeError(.invalidMessage, "the envelope's session (s) must be 32 lowercase hex digits"))) {
            try read(session: session, frames: "[]")
        }
    }

    @Test func theFirstUnknownMemberInSortedOrderIsNamed() throws {
        let post = try read(frames: #"[{"t":"call","id":1,"h":"echo","d":1,"zz":1,"aa":2},{"t":"cancel","id":2,"d":null},{"t":"reply","id":4,"ok":true,"d":1}]"#)
        #expect(post.frames == [
            .invalid(id: 1, reason: "a call frame has no member \"aa\""),
            .invalid(id: 2, reason: "a cancel frame has no member \"d\""),
            .reply(id: 4, result: .success(RawJSON(unchecked: "1"))),
        ])
    }

    /// A member the type does not have is named, known ones (`d` on a cancel) and unknown ones
    /// alike, the first in sorted order; a frame without a type or of an unknown type says so.
    @Test(arguments: [
        (#"{"t":"cancel","id":2,"zz":1,"d":null}"#, InboundFrame.invalid(id: 2, reason: "a cancel frame has no member \"d\"")),
        (#"{"t":"cancel","id":2,"ok":true,"e":1}"#, .invalid(id: 2, reason: "a cancel frame has no member \"e\"")),
        (#"{"t":"hello","id":1,"url":"u","origin":"o","secret":"s"}"#, .invalid(id: 1, reason: "a hello frame has no member \"id\"")),
        // The page world's offer of the direct delivery: a boolean, false when absent.
        (#"{"t":"hello","url":"u","origin":"o","secret":"fedcba9876543210fedcba9876543210","dialects":["wx"],"deliver":true}"#,
         .hello(url: "u", origin: "o", secret: "fedcba9876543210fedcba9876543210", dialects: ["wx"], deliver: true)),
        (#"{"t":"hello","url":"u","origin":"o","secret":"fedcba9876543210fedcba9876543210"}"#,
         .hello(url: "u", origin: "o", secret: "fedcba9876543210fedcba9876543210", dialects: [], deliver: false)),
        (#"{"t":"hello","url":"u","origin":"o","secret":"fedcba9876543210fedcba9876543210","deliver":"yes"}"#,
         .invalid(id: nil, reason: "a hello frame's deliver must be true or false")),
        (#"{"id":5,"h":"x"}"#, .invalid(id: 5, reason: "the frame has no type (t)")),
        (#"{"t":"shout","id":5}"#, .invalid(id: 5, reason: "unknown frame type \"shout\"")),
        (#"{"t":"call","id":3,"h":"x","d":[1],"to":250,"dl":"wvjb"}"#,
         .call(id: 3, handler: "x", data: RawJSON(unchecked: "[1]"), timeoutMilliseconds: 250, dialect: .wvjb)),
    ])
    func framesAreCheckedMemberByMember(frame: String, expected: InboundFrame) throws {
        #expect(try read(frames: "[" + frame + "]").frames == [expected])
    }

    /// Payloads from 64 KiB on are kept as slices of the message (no copy of megabytes); they must
    /// still be exactly the bytes the page sent, multi-byte characters and escapes included, and
    /// the echo reply built from one must be the same text as from a string of its own.
    @Test(arguments: [1, 5_000, 20_000])  // 15 bytes, 73 KiB and 293 KiB
    func largePayloadsAreByteExactSlices(units: Int) throws {
        let unit = #"é😀\u2028\"x"#  // JSON text: two escapes, two multi-byte characters
        let body = String(repeating: unit, count: units)
        let payload = "\"" + body + "\""
        let post = try InboundPost.read(
            "{\"v\":1,\"s\":\"\(Self.session)\",\"m\":[{\"t\":\"call\",\"id\":1,\"h\":\"echo\",\"d\":\(payload)},{\"t\":\"cancel\",\"id\":2}]}",
            maxPayload: 1 << 24, maxDepth: 8)
        guard case .call(_, _, let data, _, _)? = post.frames.first else {
            Issue.record("no call frame: \(post.frames)")
            return
        }
        #expect(data.text == payload)
        #expect(data.utf8Count == payload.utf8.count)
        #expect(data == RawJSON(unchecked: payload))
        #expect(OutboundFrame.singleReply(id: 1, .success(data)) == OutboundFrame.singleReply(id: 1, .success(RawJSON(unchecked: payload))))
        #expect(post.frames.last == .cancel(id: 2))
    }

    /// Down call frames are written into one string; the handler name is quoted as JSON, the data
    /// goes in as it is.
    @Test func callFramesAreWrittenExactly() {
        #expect(OutboundFrame.call(id: 7, handler: "page.echo", RawJSON(unchecked: #"{"a":[1]}"#))
                == #"{"t":"call","id":7,"h":"page.echo","d":{"a":[1]}}"#)
        #expect(OutboundFrame.call(id: 12_345_678_901, handler: "a\"b\u{2028}", RawJSON(unchecked: "null"), arguments: true)
                == #"{"t":"call","id":12345678901,"h":"a\"b\u2028","d":null,"args":true}"#)
        #expect(OutboundFrame.singleReply(id: 3, .success(RawJSON(unchecked: #""x""#))) == #"[{"t":"reply","id":3,"ok":true,"d":"x"}]"#)
    }
}
