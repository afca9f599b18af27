@testable import HybridShellCore
import Testing

/// Issue 11, item 4: the built-in `log` handler cannot forge lines or drive the terminal.
@Suite("Log text from pages")
struct LogTextTests {
    @Test(arguments: [
        ("plain text", "plain text"),
        ("two\nlines", "two\\nlines"),
        ("fake\r\nhybrid-run: loaded", "fake\\r\\nhybrid-run: loaded"),
        ("\u{1B}[31mred\u{1B}[0m", "\\u{1B}[31mred\\u{1B}[0m"),
        ("nul\u{0}bell\u{7}", "nul\\u{0}bell\\u{7}"),
        ("c1\u{9B}2J", "c1\\u{9B}2J"),
        ("sep\u{2028}para\u{2029}", "sep\\u{2028}para\\u{2029}"),
        ("back\\slash", "back\\\\slash"),
        ("tab\there", "tab\\there"),
        ("ünïcödé 日本 😀", "ünïcödé 日本 😀"),
    ])
    func controlCharactersAreEscaped(input: String, expected: String) {
        #expect(LogText.sanitized(input) == expected)
    }

    @Test func longTextIsCapped() {
        let text = String(repeating: "a", count: 10_000)
        let logged = LogText.sanitized(text, limit: 100)
        #expect(logged == String(repeating: "a", count: 100) + "… (9900 more characters)")
        #expect(LogText.sanitized(String(repeating: "b", count: 100), limit: 100) == String(repeating: "b", count: 100))
    }
}
