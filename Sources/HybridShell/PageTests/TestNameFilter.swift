import Foundation

/// `--grep` patterns: a JavaScript regular expression, written bare (`cart|checkout`) or as a
/// literal with flags (`/cart/i`). Checked here with ICU's syntax, which accepts what JavaScript
/// regular expressions commonly use, so a typo fails before any page loads.
public enum TestNameFilter {
    public static func parse(_ text: String, flag: String) throws(ShellError) -> (source: String, flags: String) {
        guard !text.isEmpty else { throw .invalidArgument("\(flag) needs a pattern") }
        var source = text
        var flags = ""
        if text.count >= 2, text.hasPrefix("/"), let close = text.lastIndex(of: "/"), close != text.startIndex {
            let candidate = String(text[text.index(after: close)...])
            if candidate.allSatisfy({ "dgimsuy".contains($0) }) {
                source = String(text[text.index(after: text.startIndex)..<close])
                flags = candidate
            }
        }
        guard !source.isEmpty else { throw .invalidArgument("\(flag) needs a pattern between the slashes") }
        do {
            _ = try NSRegularExpression(pattern: source, options: flags.contains("i") ? [.caseInsensitive] : [])
        } catch {
            throw .invalidArgument("\(flag) \(JSONValue.quoted(text)) is not a valid regular expression")
        }
        return (source, flags)
    }
}
