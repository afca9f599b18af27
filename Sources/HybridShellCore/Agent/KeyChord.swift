/// A key press an agent asks for (`press("Control+a")`), read into a GDK key name and modifiers:
/// the names agents know (DOM `KeyboardEvent.key`: Enter, ArrowDown, PageUp…) become X keysym
/// names (Return, Down, Page_Up…) that `gdk_keyval_from_name` knows.
public struct KeyChord: Sendable, Equatable {
    /// The GDK key name (`gdk_keyval_from_name`), e.g. `Return`, `a`, `F5`.
    public let keyName: String
    public let modifiers: KeyModifiers

    public init(keyName: String, modifiers: KeyModifiers = []) {
        self.keyName = keyName
        self.modifiers = modifiers
    }

    public init(parsing text: String) throws(AgentToolError) {
        // "+" alone, or as the last key of a chord ("Control++"), is the plus key.
        var parts = text.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        if text.hasSuffix("+"), parts.count >= 2, parts[parts.count - 1].isEmpty, parts[parts.count - 2].isEmpty {
            parts.removeLast(2)
            parts.append("+")
        }
        guard let key = parts.last, !key.isEmpty else { throw AgentToolError("press: \(JSONValue.quoted(text)) names no key; use e.g. Enter, Tab, a or Control+a") }
        var modifiers: KeyModifiers = []
        for name in parts.dropLast() {
            guard let modifier = Self.modifierNames[name.lowercased()] else {
                throw AgentToolError("press: unknown modifier \(JSONValue.quoted(name)); use Control, Shift, Alt or Meta")
            }
            modifiers.insert(modifier)
        }
        guard let keyName = Self.gdkName(key) else {
            throw AgentToolError("press: unknown key \(JSONValue.quoted(key)); use a single character or a name such as Enter, Tab, Escape, Backspace, Delete, ArrowUp, Home, PageDown, F1")
        }
        self.init(keyName: keyName, modifiers: modifiers)
    }

    private static let modifierNames: [String: KeyModifiers] = [
        "control": .control, "ctrl": .control, "shift": .shift, "alt": .alt, "meta": .superKey, "super": .superKey,
    ]

    private static let namedKeys: [String: String] = [
        "enter": "Return", "return": "Return", "tab": "Tab", "escape": "Escape", "esc": "Escape",
        "backspace": "BackSpace", "delete": "Delete", "insert": "Insert", "space": "space", " ": "space",
        "arrowup": "Up", "arrowdown": "Down", "arrowleft": "Left", "arrowright": "Right",
        "up": "Up", "down": "Down", "left": "Left", "right": "Right",
        "home": "Home", "end": "End", "pageup": "Page_Up", "pagedown": "Page_Down",
    ]

    /// Punctuation by its X keysym name (`gdk_keyval_from_name` knows no "/").
    private static let punctuation: [Character: String] = [
        "+": "plus", "-": "minus", "=": "equal", "/": "slash", "\\": "backslash", ".": "period", ",": "comma",
        ";": "semicolon", ":": "colon", "'": "apostrophe", "\"": "quotedbl", "`": "grave", "[": "bracketleft",
        "]": "bracketright", "(": "parenleft", ")": "parenright", "!": "exclam", "?": "question", "*": "asterisk",
        "#": "numbersign", "@": "at", "&": "ampersand", "%": "percent", "$": "dollar", "_": "underscore",
        "<": "less", ">": "greater", "{": "braceleft", "}": "braceright", "|": "bar", "~": "asciitilde", "^": "asciicircum",
    ]

    static func gdkName(_ key: String) -> String? {
        if let named = namedKeys[key.lowercased()] { return named }
        if key.count == 1, let character = key.first {
            if character.isASCII, character.isLetter || character.isNumber { return key }
            return punctuation[character]
        }
        if key.count >= 2, key.count <= 3, key.first == "F" || key.first == "f", let number = Int(key.dropFirst()), (1...24).contains(number) {
            return "F\(number)"
        }
        return nil
    }
}
