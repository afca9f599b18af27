import HybridShell
import Testing

/// `--grep` is JavaScript's RegExp, checked by JavaScriptCore itself (no view needed).
@Suite("--grep patterns are JavaScriptCore regular expressions")
@EngineActor
struct TestNameFilterTests {
    @Test(arguments: [
        ("cart|checkout", "cart|checkout", ""),
        ("/Cart/i", "Cart", "i"),
        // `[^]` (any character) is JavaScript, not ICU.
        ("sums[^]*", "sums[^]*", ""),
        // Flag v (unicodeSets) is a flag, not part of a literal text.
        ("/items/v", "items", "v"),
        ("/\\p{L}+/u", "\\p{L}+", "u"),
        ("a/b", "a/b", ""),
        ("/a/b/", "a/b", ""),
    ] as [(String, String, String)])
    func validPatternsParse(text: String, source: String, flags: String) throws {
        let parsed = try TestNameFilter.parseAndValidate(text, flag: "--grep")
        #expect(parsed.source == source)
        #expect(parsed.flags == flags)
    }

    @Test(arguments: [
        ("(unclosed", "--grep \"(unclosed\" is not a valid JavaScript regular expression: "),
        ("/items/x", "--grep \"/items/x\" is not a valid JavaScript regular expression (pattern \"items\", flags \"x\"): "),
        ("/a/ii", "--grep \"/a/ii\" is not a valid JavaScript regular expression (pattern \"a\", flags \"ii\"): "),
        ("/[z-a]/", "--grep \"[z-a]\" is not a valid JavaScript regular expression: "),
    ])
    func invalidPatternsAreRefusedNamingThem(text: String, start: String) {
        do {
            _ = try TestNameFilter.parseAndValidate(text, flag: "--grep")
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.description.hasPrefix(start), "\(error)")
            #expect(error.description.count > start.count, "no reason from JavaScriptCore: \(error)")
        }
    }

    @Test func emptyPatternsAreRefused() {
        #expect(throws: ShellError.invalidArgument("--grep-invert needs a pattern")) { try TestNameFilter.parse("", flag: "--grep-invert") }
        #expect(throws: ShellError.invalidArgument("--grep needs a pattern between the slashes")) { try TestNameFilter.parse("//", flag: "--grep") }
    }
}
