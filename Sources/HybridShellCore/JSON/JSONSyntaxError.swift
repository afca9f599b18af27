/// Why a JSON text was rejected, and where (a byte offset into its UTF-8 form).
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case unexpectedEnd
        case unexpectedCharacter(String)
        case invalidEscape
        case invalidNumber
        case controlCharacterInString
        case duplicateKey(String)
        case forbiddenKey(String)
        case tooDeep(limit: Int)
        case trailingCharacters
    }

    public let kind: Kind
    public let offset: Int

    public var description: String {
        let what: String
        switch kind {
        case .unexpectedEnd: what = "unexpected end of JSON text"
        case .unexpectedCharacter(let character): what = "unexpected character \(character)"
        case .invalidEscape: what = "invalid escape sequence in string"
        case .invalidNumber: what = "invalid number"
        case .controlCharacterInString: what = "unescaped control character in string"
        case .duplicateKey(let key): what = "duplicate key \(JSONValue.quoted(key))"
        case .forbiddenKey(let key): what = "forbidden key \(JSONValue.quoted(key))"
        case .tooDeep(let limit): what = "nesting deeper than \(limit) levels"
        case .trailingCharacters: what = "unexpected text after the JSON value"
        }
        return "\(what) at byte \(offset)"
    }
}
