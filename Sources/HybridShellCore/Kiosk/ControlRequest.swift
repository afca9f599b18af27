/// A request to a running kiosk over its control socket: one line of text, a command and at most
/// one argument, separated by spaces or tabs.
///
///     status
///     open https://example.org/
///     screenshot /home/kiosk/shots/front page.png
///
/// The argument of `screenshot` is the rest of the line, so a path may contain spaces without
/// quoting (only its leading and trailing spaces and tabs are dropped). A URL has no spaces, so
/// `open` takes exactly one word.
package enum ControlRequest: Equatable, Sendable {
    /// Report the kiosk's state.
    case status
    /// Load this URL.
    case open(String)
    /// Reload the page.
    case reload
    /// Go back to the start page.
    case home
    /// Save a PNG of the page at this path (absolute: the kiosk's working directory is its own).
    case screenshot(path: String)
    /// Stop the kiosk.
    case quit

    /// The commands, as the messages and `hybrid-run ctl --help` list them.
    public static let commandList = "status, open URL, reload, home, screenshot FILE.png, quit"

    /// Reads a request line. A trailing "\r" is ignored; the errors say precisely what is wrong.
    public static func parse(_ line: String) throws(ShellError) -> ControlRequest {
        var text = Substring(line)
        if text.hasSuffix("\r") { text = text.dropLast() }
        if let control = text.unicodeScalars.first(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F }) {
            let code = String(control.value, radix: 16, uppercase: true)
            throw .invalidArgument("the request contains a control character (U+\(String(repeating: "0", count: 4 - code.count))\(code)); a request is one line of text")
        }
        let isSeparator: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        text = text.drop(while: isSeparator)
        guard !text.isEmpty else { throw .invalidArgument("empty request: give a command (\(commandList))") }
        let name = String(text.prefix(while: { !isSeparator($0) }))
        let rest = text.dropFirst(name.count).drop(while: isSeparator)
        let argument = String(rest.reversed().drop(while: isSeparator).reversed())
        switch name {
        case "status": try noArgument(name, argument); return .status
        case "reload": try noArgument(name, argument); return .reload
        case "home": try noArgument(name, argument); return .home
        case "quit": try noArgument(name, argument); return .quit
        case "open":
            guard !argument.isEmpty else { throw .invalidArgument("open needs a URL: open URL") }
            let words = argument.split(whereSeparator: isSeparator)
            guard words.count == 1 else {
                throw .invalidArgument("open takes one argument, a URL, not \(words.count) words (write a space in a URL as %20)")
            }
            return .open(argument)
        case "screenshot":
            guard !argument.isEmpty else { throw .invalidArgument("screenshot needs a file: screenshot FILE.png") }
            return .screenshot(path: argument)
        default:
            throw .invalidArgument("unknown command \(JSONValue.quoted(name)): the commands are \(commandList)")
        }
    }

    private static func noArgument(_ name: String, _ argument: String) throws(ShellError) {
        guard argument.isEmpty else {
            throw .invalidArgument("\(name) takes no argument, got \(JSONValue.quoted(argument))")
        }
    }

    /// The request as a line of text (without the "\n"); ``parse(_:)`` reads it back.
    public var line: String {
        switch self {
        case .status: "status"
        case .open(let url): "open \(url)"
        case .reload: "reload"
        case .home: "home"
        case .screenshot(let path): "screenshot \(path)"
        case .quit: "quit"
        }
    }

    /// The same request with a relative screenshot path made absolute against `directory` (the
    /// client's working directory, which the kiosk does not share).
    public func resolvingPaths(against directory: String) -> ControlRequest {
        guard case .screenshot(let path) = self, !path.hasPrefix("/") else { return self }
        return .screenshot(path: directory.hasSuffix("/") ? directory + path : directory + "/" + path)
    }
}
