@testable import HybridShellCore
import Testing

@Suite("Strict JSON parser (pure)")
struct JSONParserTests {
    @Test(arguments: [
        ("{\"a\":1,}", "unexpected character '}' at byte 7"),
        ("[1,2,]", "unexpected character ']' at byte 5"),
        ("{\"a\":1,\"a\":2}", "duplicate key \"a\" at byte 7"),
        ("{\"a\":1,\"\\u0061\":2}", "duplicate key \"a\" at byte 7"),
        ("{\"__proto__\":{}}", "forbidden key \"__proto__\" at byte 1"),
        ("NaN", "unexpected character 'N' at byte 0"),
        ("'single'", "unexpected character ''' at byte 0"),
        ("01", "unexpected text after the JSON value at byte 1"),
        ("1.", "invalid number at byte 0"),
        ("\"\\x\"", "invalid escape sequence in string at byte 1"),
        ("\"a\u{1}b\"", "unescaped control character in string at byte 2"),
        ("[", "unexpected end of JSON text at byte 1"),
        ("{\"a\" 1}", "unexpected character '1' at byte 5"),
        ("1 2", "unexpected text after the JSON value at byte 2"),
    ])
    func rejectsWithPreciseMessages(text: String, message: String) {
        #expect(throws: (any Error).self) { try JSONParser().parse(text) }
        do { _ = try JSONParser().parse(text) } catch { #expect(error.description == message) }
    }

    @Test func nestingLimitIsExact() throws {
        let parser = JSONParser(limits: .init(maxDepth: 3))
        #expect(try parser.parse("[[[1]]]") == [[[1]]])
        #expect(throws: JSONSyntaxError.self) { try parser.parse("[[[[1]]]]") }
        #expect(throws: JSONSyntaxError.self) { try parser.validate("[[[{}]]]") }
    }

    /// The string scanner reads eight bytes at a time: put every special byte at every offset
    /// around word boundaries and check nothing slips through or is misread.
    @Test func specialBytesAtEveryOffsetAreSeen() throws {
        for length in 0..<20 {
            for position in 0...length {
                let plain = String(repeating: "x", count: length)
                let prefix = String(plain.prefix(position)), suffix = String(plain.dropFirst(position))
                #expect(try JSONParser().parse("\"" + prefix + "\\n" + suffix + "\"") == .string(prefix + "\n" + suffix))
                #expect(try JSONParser().parse("\"" + prefix + "\\\"" + suffix + "\"") == .string(prefix + "\"" + suffix))
                #expect(throws: JSONSyntaxError.self) { try JSONParser().validate("\"" + prefix + "\u{1F}" + suffix + "\"") }
                #expect(throws: JSONSyntaxError.self) { try JSONParser().validate("\"" + prefix + "\t" + suffix + "\"") }
                #expect(try JSONParser().parse("\"" + prefix + "é🦊" + suffix + "\"") == .string(prefix + "é🦊" + suffix))
                #expect(throws: JSONSyntaxError.self) { try JSONParser().validate("\"" + prefix) }
            }
        }
    }

    @Test func escapesDecode() throws {
        #expect(try JSONParser().parse(#""\u00e9\ud83e\udd8a\/\b\f\r\t""#) == .string("é🦊/\u{8}\u{C}\r\t"))
        // A lone surrogate cannot live in a Swift string; it decodes as U+FFFD (raw payloads keep it).
        #expect(try JSONParser().parse(#""\ud800x""#) == .string("\u{FFFD}x"))
    }

    @Test func writesWhatJavaScriptReads() {
        let value: JSONValue = ["b": [1, 2.5, nil, true], "a": "line\u{2028}sep\u{2029} \"q\" \\ \u{1}"]
        #expect(value.jsonText == #"{"a":"line\u2028sep\u2029 \"q\" \\ \u0001","b":[1,2.5,null,true]}"#)
        #expect(JSONValue.number(1e-7).jsonText == "1e-7")
        #expect(JSONValue.number(.nan).jsonText == "null")
    }

    /// Integers of up to 15 digits are read without `strtod`: every one must equal what `strtod`
    /// (Swift's `Double(String)`) reads, the edges and the fall-back lengths included.
    @Test(arguments: ["0", "-0", "7", "-7", "123", "999999999999999", "-999999999999999", "1000000000000000",
                      "9007199254740993", "12345678901234567890", "1.5", "-0.0", "1e3", "120", "-120"])
    func numbersReadAsStrtodReadsThem(text: String) throws {
        let parsed = try JSONParser().parse(text)
        let expected = try #require(Double(text))
        guard case .number(let value) = parsed else { Issue.record("\(parsed)"); return }
        #expect(value == expected && value.sign == expected.sign)
    }

    /// An object's first 8 keys are compared inline, the next ones in a list, and past 16 keys in
    /// a set: a duplicate of a key from any of those parts must be found on either side of each
    /// line (short keys and keys too long to be small strings alike), and distinct keys pass.
    @Test(arguments: [3, 8, 9, 16, 17, 40])
    func duplicatesAreFoundInObjectsOfAnySize(keys: Int) throws {
        for prefix in ["k", "a-key-longer-than-fifteen-bytes-"] {
            let distinct = (0..<keys).map { "\"\(prefix)\($0)\":\($0)" }.joined(separator: ",")
            #expect(try JSONParser().parse("{" + distinct + "}").objectValue?.count == keys)
            for repeatedIndex in Set([0, keys / 2, keys - 1]) {
                let key = "\"\(prefix)\(repeatedIndex)\""
                let repeated = "{" + distinct + "," + key + ":0}"
                do {
                    _ = try JSONParser().parse(repeated)
                    Issue.record("a duplicate of key \(repeatedIndex) in an object of \(keys) keys was accepted")
                } catch {
                    let offset = repeated.utf8.count - key.utf8.count - 3
                    #expect(error.description == "duplicate key \(key) at byte \(offset)")
                }
            }
        }
    }

    /// The forbidden-key check skips keys whose length no forbidden key has; keys of 64 bytes and
    /// more are always looked up.
    @Test func forbiddenKeysOfEveryLengthAreFound() throws {
        let long = String(repeating: "x", count: 70)
        let parser = JSONParser(limits: .init(forbiddenKeys: ["__proto__", "constructor", long]))
        for key in ["__proto__", "constructor", long] {
            #expect(throws: JSONSyntaxError.self) { try parser.parse("{\"\(key)\":1}") }
        }
        #expect(try parser.parse("{\"__proto_x\":1,\"" + String(repeating: "x", count: 69) + "\":2}").objectValue?.count == 2)
        var limits = JSONParser.Limits(forbiddenKeys: [])
        limits.forbiddenKeys = ["ab"]
        #expect(throws: JSONSyntaxError.self) { try JSONParser(limits: limits).parse("{\"ab\":1}") }
    }

    /// Strings that need no escape are quoted whole; any other goes scalar by scalar. Both paths
    /// give JSON that reads back as the string, with U+2028/U+2029 and controls escaped, and the
    /// other characters led by the byte of U+2028 (E2) left as they are.
    @Test(arguments: [
        ("echo", #""echo""#),
        ("bench.done", #""bench.done""#),
        ("€ and ✓", #""€ and ✓""#),
        ("line\u{2028}para\u{2029}", #""line\u2028para\u2029""#),
        ("quote \" backslash \\", #""quote \" backslash \\""#),
        ("tab\tnul\u{0}bell\u{7}", #""tab\tnul\u0000bell\u0007""#),
        ("🦊 €\u{2028}", #""🦊 €\u2028""#),
        ("", #""""#),
    ])
    func quotedStringsAreExactJSON(string: String, expected: String) throws {
        #expect(JSONValue.quoted(string) == expected)
        #expect(try JSONParser().parse(expected) == .string(string))
    }
}
