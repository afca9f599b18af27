/// The page as an agent reads it: one line per visible interactive element (and heading), with a
/// ref, its role, accessible name, value and state:
///
///     Page "Cart" — app://shop/cart.html
///     e1 heading "Your cart" level=1
///     e2 textbox "Coupon" value="SPRING"
///     e3 button "Apply" disabled
///
/// Built from what the agent script's `snapshot` returns (a JSON array of elements in document
/// order, numbered e1… there); the refs stay valid until the next snapshot or navigation
/// (``AgentRefs``).
public struct AgentSnapshot: Sendable, Equatable {
    public struct Element: Sendable, Equatable {
        public var role: String
        public var name: String
        public var value: String?
        public var level: Int?
        public var states: [String]

        public init(role: String, name: String, value: String? = nil, level: Int? = nil, states: [String] = []) {
            self.role = role
            self.name = name
            self.value = value
            self.level = level
            self.states = states
        }
    }

    public let url: String
    public let title: String
    public let elements: [Element]

    /// The longest text an outline may be; elements past it are counted, not listed.
    public static let maximumText = 20_000
    /// Names and values are cut to this many characters.
    public static let maximumField = 80

    public init(url: String, title: String, elements: [Element]) {
        self.url = url
        self.title = title
        self.elements = elements
    }

    /// Reads the agent script's answer; a malformed one is an error naming what is wrong.
    public init(parsing value: JSONValue) throws(AgentToolError) {
        guard let object = value.objectValue, let items = object["elements"]?.arrayValue else {
            throw AgentToolError("snapshot: the page gave no element list (\(value.typeName)); reload the page and try again")
        }
        var elements: [Element] = []
        for item in items {
            guard let role = item["role"]?.stringValue else { throw AgentToolError("snapshot: an element without a role: \(item.jsonText)") }
            elements.append(Element(role: role, name: item["name"]?.stringValue ?? "", value: item["value"]?.stringValue,
                                    level: item["level"]?.intValue, states: item["states"]?.arrayValue?.compactMap(\.stringValue) ?? []))
        }
        self.init(url: object["url"]?.stringValue ?? "", title: object["title"]?.stringValue ?? "", elements: elements)
    }

    /// The outline text; the refs are e1… in element order.
    public var outline: String {
        var text = "Page \(JSONValue.quoted(Self.cut(title))) — \(url)\n"
        if elements.isEmpty { text += "(no visible interactive elements)\n" }
        for (index, element) in elements.enumerated() {
            let line = Self.line(element, ref: "e\(index + 1)")
            if text.utf8.count + line.utf8.count + 200 > Self.maximumText {
                text += "… \(elements.count - index) more elements not listed (the outline is limited to \(Self.maximumText / 1000) KB); use selectors for them or scroll and snapshot again\n"
                break
            }
            text += line + "\n"
        }
        return text
    }

    static func line(_ element: Element, ref: String) -> String {
        var line = "\(ref) \(element.role)"
        if !element.name.isEmpty { line += " " + JSONValue.quoted(cut(element.name)) }
        if let value = element.value { line += " value=" + JSONValue.quoted(cut(value)) }
        if let level = element.level { line += " level=\(level)" }
        for state in element.states { line += " " + state }
        return line
    }

    static func cut(_ text: String) -> String {
        let collapsed = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return collapsed.count <= maximumField ? collapsed : String(collapsed.prefix(maximumField - 1)) + "…"
    }
}
