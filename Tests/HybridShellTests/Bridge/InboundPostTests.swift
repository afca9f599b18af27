import Testing
@testable import HybridShell

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
}
