import Foundation

/// Where a page comes from: a URL template with `{placeholders}`, the parameters that fill them,
/// extra headers for the main document, a load timeout and a cache policy (what
/// `webkit_web_view_load_request` is given). Everything is checked by ``request()`` before anything loads.
///
///     WebRoute("https://shop.example/{lang}/cart?token={token}", parameters: ["lang": "de", "token": "a b"])
///     // → https://shop.example/de/cart?token=a%20b
public struct WebRoute: Sendable, Equatable {
    public enum CachePolicy: String, Sendable, Equatable, SettingChoice {
        /// HTTP caching as the server says.
        case useProtocol = "default"
        /// Revalidate everything (`Cache-Control: no-cache` on the main request).
        case reloadIgnoringCache = "reload"
    }

    public var template: String
    public var parameters: [String: String]
    public var headers: [Header]
    public var timeout: Duration
    public var cachePolicy: CachePolicy
    /// Custom schemes the context serves (``PageLocation`` accepts URLs of these too).
    public var customSchemes: [String] = []

    public struct Header: Sendable, Equatable {
        public let name: String
        public let value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }

        /// Parses `Name: value`.
        public init(parsing text: String) throws(ShellError) {
            guard let colon = text.firstIndex(of: ":") else {
                throw .invalidArgument("a header is Name: value, not \(JSONValue.quoted(text))")
            }
            self.name = text[..<colon].trimmingCharacters(in: .whitespaces)
            self.value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            try validate()
        }

        package func validate() throws(ShellError) {
            let token = CharacterSet(charactersIn: "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
            guard !name.isEmpty, name.unicodeScalars.allSatisfy(token.contains) else {
                throw .invalidArgument("header name \(JSONValue.quoted(name)) is not an HTTP token")
            }
            if value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) {
                throw .invalidArgument("header \(name): the value must not contain a line break or NUL (it would split the request)")
            }
        }
    }

    public init(_ template: String, parameters: [String: String] = [:], headers: [Header] = [],
                timeout: Duration = .seconds(30), cachePolicy: CachePolicy = .useProtocol) {
        self.template = template
        self.parameters = parameters
        self.headers = headers
        self.timeout = timeout
        self.cachePolicy = cachePolicy
    }

    /// The URL to load and the headers of its main request, or a precise error.
    public func request(currentDirectory: String = PageLocation.currentDirectory,
                        fileKind: (String) -> PageLocation.FileKind? = PageLocation.fileKindOnDisk) throws(ShellError) -> (url: String, headers: [Header]) {
        let filled = try URLTemplate.fill(template, with: parameters)
        let url = try PageLocation.resolve(URLTemplate.encodeNonASCII(filled), currentDirectory: currentDirectory, fileKind: fileKind,
                                         customSchemes: customSchemes)
        for header in headers { try header.validate() }
        var all = headers
        if cachePolicy == .reloadIgnoringCache, !headers.contains(where: { $0.name.lowercased() == "cache-control" }) {
            all.append(Header(name: "Cache-Control", value: "no-cache"))
        }
        guard timeout > .zero else { throw .invalidArgument("the route's timeout must be positive") }
        return (url, all)
    }
}

/// `{name}` placeholders in URL templates.
public enum URLTemplate {
    /// The placeholder names in order of appearance.
    public static func placeholders(in template: String) throws(ShellError) -> [String] {
        var names: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            guard rest[open] == "{" else {
                throw .invalidArgument("URL template \(JSONValue.quoted(template)) has a } without a {")
            }
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw .invalidArgument("URL template \(JSONValue.quoted(template)) has a { without a }")
            }
            let name = String(rest[rest.index(after: open)..<close])
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }) else {
                throw .invalidArgument("URL template \(JSONValue.quoted(template)) has an invalid placeholder {\(name)}")
            }
            names.append(name)
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// Fills every placeholder, percent-encoding each value for where it stands: a path segment,
    /// the query or the fragment. Every placeholder needs a parameter and every parameter a
    /// placeholder.
    public static func fill(_ template: String, with parameters: [String: String]) throws(ShellError) -> String {
        let names = try placeholders(in: template)
        if let missing = names.first(where: { parameters[$0] == nil }) {
            throw .invalidArgument("URL template placeholder {\(missing)} has no value (give --param \(missing)=…)")
        }
        if let unknown = parameters.keys.sorted().first(where: { !names.contains($0) }) {
            let known = names.isEmpty ? "no placeholders" : names.map { "{\($0)}" }.joined(separator: ", ")
            throw .invalidArgument("parameter \(unknown) matches no placeholder (the URL has \(known))")
        }
        var result = ""
        var position = Position.path
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            let literal = rest[..<open]
            result += literal
            position = position.after(literal)
            let close = rest[open...].firstIndex(of: "}")!
            let name = String(rest[rest.index(after: open)..<close])
            result += parameters[name]!.addingPercentEncoding(withAllowedCharacters: position.allowed) ?? ""
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// Percent-encodes characters a URL cannot hold as they are (non-ASCII, spaces), leaving the
    /// URL's own syntax and existing escapes alone (so a URL with unescaped non-ASCII text, Chinese say, is escaped instead of refused).
    /// The scheme and host are left as they are, so a malformed host is still refused.
    public static func encodeNonASCII(_ url: String) -> String {
        var allowed = CharacterSet.urlFragmentAllowed
        allowed.formUnion(.urlPathAllowed)
        allowed.formUnion(.urlQueryAllowed)
        allowed.insert(charactersIn: "%#?[]@")
        var start = url.startIndex
        if let separator = url.range(of: "://") {
            start = url[separator.upperBound...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        }
        let rest = url[start...]
        return String(url[..<start]) + (rest.addingPercentEncoding(withAllowedCharacters: allowed) ?? String(rest))
    }

    private enum Position {
        case path, query, fragment

        func after(_ literal: Substring) -> Position {
            if literal.contains("#") { return .fragment }
            if self == .path, literal.contains("?") { return .query }
            return self
        }

        var allowed: CharacterSet {
            switch self {
            case .path: CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/;"))
            case .query: CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+#?/"))
            case .fragment: CharacterSet.urlFragmentAllowed
            }
        }
    }
}
