import Foundation
import HybridShell

/// The head of one HTTP/1.1 message (a request or a response) as `hybrid-run webdriver` reads it
/// off a socket: the three parts of its start line, its header fields in order, and the exact bytes
/// it arrived as (forwarded unchanged).
///
/// The grammar is strict on purpose (RFC 9112): lines end in CRLF, a field name is a token followed
/// directly by a colon, no obsolete line folding, no NUL or bare CR/LF. What this parser and
/// WebKitWebDriver's libsoup might read differently is refused instead of forwarded.
struct HTTPMessageHead: Equatable {
    /// The longest head accepted (start line and fields): 64 KiB, far above any WebDriver client's.
    static let maximumLength = 65_536

    /// Request: method, target, version. Response: version, status code, reason phrase.
    var startLine: (String, String, String) { (parts[0], parts[1], parts[2]) }
    let parts: [String]
    let fields: [(name: String, value: String)]
    let raw: [UInt8]

    static func == (left: HTTPMessageHead, right: HTTPMessageHead) -> Bool {
        left.raw == right.raw
    }

    /// Every value of the fields named `name` (case-insensitive), in order.
    func values(_ name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }

    /// Why a head cannot be read.
    struct Malformed: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    /// Reads a head from `raw`, which ends with the empty line (CRLF CRLF) that ends it.
    init(parsing raw: [UInt8]) throws(Malformed) {
        guard raw.count <= Self.maximumLength else { throw Malformed(description: "the request head is longer than \(Self.maximumLength) bytes") }
        guard raw.count >= 4, raw.suffix(4).elementsEqual([13, 10, 13, 10]) else { throw Malformed(description: "the head does not end with an empty line") }
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        var index = 0
        while index < raw.count - 2 {
            let byte = raw[index]
            if byte == 13 {
                guard raw[index + 1] == 10 else { throw Malformed(description: "a bare CR in the head") }
                lines.append(raw[start..<index])
                index += 2
                start = index
                continue
            }
            guard byte != 10 else { throw Malformed(description: "a line of the head ends in LF without CR") }
            guard byte != 0 else { throw Malformed(description: "a NUL byte in the head") }
            index += 1
        }
        guard let first = lines.first, let startLine = String(validating: first, as: UTF8.self) else {
            throw Malformed(description: "the start line is missing or not UTF-8")
        }
        let parts = startLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw Malformed(description: "the start line is not three parts separated by single spaces")
        }
        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let text = String(validating: line, as: UTF8.self), let colon = text.firstIndex(of: ":") else {
                throw Malformed(description: "a header line without a colon, or not UTF-8")
            }
            let name = String(text[..<colon])
            guard !name.isEmpty, name.utf8.allSatisfy(Self.isTokenByte) else {
                throw Malformed(description: "the header name \(JSONValue.quoted(name)) is not a token (no spaces before the colon, no folding)")
            }
            let value = text[text.index(after: colon)...].trimmingWhitespace
            fields.append((name, value))
        }
        self.parts = parts
        self.fields = fields
        self.raw = raw
    }

    /// RFC 9110's `tchar`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}

private extension Substring {
    /// Without leading and trailing spaces and tabs (optional whitespace around a field value).
    var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
