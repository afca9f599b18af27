import Testing
@testable import HybridShellCore

/// The dsbridge prompt gate's stand-in for backslashes (pure).
@Suite("dsbridge prompt texts: backslashes travel as U+0001")
struct PromptTextTests {
    @Test(arguments: [
        #"{"data":"quote \" backslash \\ escape \u0041 \ud800"}"#,
        "{\"data\":\"no backslash, ¥ and 😀 stay\"}",
        "",
        String(repeating: #"\\"#, count: 10_000),
    ])
    func encodingLeavesNoBackslashAndDecodesBack(text: String) {
        let encoded = PromptText.encode(text)
        #expect(!encoded.utf8.contains(0x5C))
        #expect(encoded.utf8.count == text.utf8.count)
        #expect(PromptText.decode(encoded) == text)
    }

    @Test func aPageTextWithoutStandInsIsItself() {
        #expect(PromptText.decode(#"{"data":"¥\""}"#) == #"{"data":"¥\""}"#)
        #expect(PromptText.decode("{\"data\":\"\u{1}\"\u{1}\u{1}\"}") == #"{"data":"\"\\"}"#)
    }
}
