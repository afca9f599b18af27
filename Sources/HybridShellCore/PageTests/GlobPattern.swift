/// A shell-style path pattern: `*` and `?` within one path component, `[abc]` / `[!a-z]` classes,
/// and `**` for any number of components (`tests/**/*.html`). Used for page arguments the shell
/// did not expand (quoted ones).
struct GlobPattern: Sendable, Equatable {
    let pattern: String

    init(_ pattern: String) {
        self.pattern = pattern
    }

    static func hasWildcards(_ text: String) -> Bool {
        text.contains { "*?[".contains($0) }
    }

    /// The leading components without wildcards: where a walk for matches starts.
    var base: String {
        let components = pattern.split(separator: "/", omittingEmptySubsequences: false)
        let fixed = components.prefix { !GlobPattern.hasWildcards(String($0)) }
        let joined = fixed.joined(separator: "/")
        if fixed.count == components.count { return joined }
        return pattern.hasPrefix("/") && joined.isEmpty ? "/" : joined
    }

    func matches(_ path: String) -> Bool {
        let pathParts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let patternParts = pattern.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        return GlobPattern.match(patternParts[...], pathParts[...])
    }

    private static func match(_ pattern: ArraySlice<String>, _ path: ArraySlice<String>) -> Bool {
        guard let head = pattern.first else { return path.isEmpty }
        if head == "**" {
            // Zero or more whole components; never a hidden one.
            var rest = path
            while true {
                if match(pattern.dropFirst(), rest) { return true }
                guard let next = rest.first, !next.hasPrefix(".") else { return false }
                rest = rest.dropFirst()
            }
        }
        guard let component = path.first, matchComponent(Array(head), Array(component)) else { return false }
        return match(pattern.dropFirst(), path.dropFirst())
    }

    /// One component: `*` never matches a leading dot (hidden files), as in the shell.
    private static func matchComponent(_ pattern: [Character], _ text: [Character]) -> Bool {
        if text.first == ".", pattern.first != "." { return false }
        return matchFrom(pattern[...], text[...])
    }

    private static func matchFrom(_ pattern: ArraySlice<Character>, _ text: ArraySlice<Character>) -> Bool {
        guard let first = pattern.first else { return text.isEmpty }
        switch first {
        case "*":
            var rest = text
            while true {
                if matchFrom(pattern.dropFirst(), rest) { return true }
                guard !rest.isEmpty else { return false }
                rest = rest.dropFirst()
            }
        case "?":
            return !text.isEmpty && matchFrom(pattern.dropFirst(), text.dropFirst())
        case "[":
            guard let character = text.first, let (matched, after) = matchClass(pattern.dropFirst(), character) else {
                // An unclosed bracket is a literal "[".
                return text.first == "[" && matchFrom(pattern.dropFirst(), text.dropFirst())
            }
            return matched && matchFrom(after, text.dropFirst())
        default:
            return text.first == first && matchFrom(pattern.dropFirst(), text.dropFirst())
        }
    }

    /// `[!a-z_]`: whether `character` is in the class, and the pattern after the `]`.
    private static func matchClass(_ pattern: ArraySlice<Character>, _ character: Character) -> (Bool, ArraySlice<Character>)? {
        var rest = pattern
        let negated = rest.first == "!" || rest.first == "^"
        if negated { rest = rest.dropFirst() }
        var matched = false
        var first = true
        while let next = rest.first {
            if next == "]", !first { return (matched != negated, rest.dropFirst()) }
            first = false
            rest = rest.dropFirst()
            if rest.count >= 2, rest.first == "-", let upper = rest.dropFirst().first, upper != "]" {
                if next <= character, character <= upper { matched = true }
                rest = rest.dropFirst(2)
            } else if next == character {
                matched = true
            }
        }
        return nil
    }
}
