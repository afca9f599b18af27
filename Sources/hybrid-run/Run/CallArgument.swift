import HybridShell
/// Parses `--call NAME=JSON` (`NAME` alone means `null`).
enum CallArgument {
    static func parse(_ text: String) throws(ShellError) -> (name: String, data: RawJSON) {
        let name = String(text.prefix { $0 != "=" })
        guard !name.isEmpty, !name.contains(where: \.isWhitespace) else {
            throw .invalidArgument("--call takes NAME=JSON with a handler name, not \(JSONValue.quoted(text))")
        }
        guard name.count < text.count else { return (name, .null) }
        let json = String(text.dropFirst(name.count + 1))
        do {
            return (name, try RawJSON(validating: json))
        } catch {
            throw .invalidArgument("--call \(name): the data is not valid JSON (\(error.message)); quote strings: \(name)='\"text\"'")
        }
    }
}
