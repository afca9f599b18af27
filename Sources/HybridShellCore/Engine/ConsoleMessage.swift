/// A message a page wrote to its console, or an uncaught error, with where it came from.
public struct ConsoleMessage: Sendable, Equatable {
    public enum Level: String, Sendable, Equatable, CaseIterable {
        case log, info, warn, error, debug
    }

    public enum Source: String, Sendable, Equatable {
        /// `console.log` and friends.
        case consoleAPI = "console"
        /// An exception nobody caught.
        case uncaughtException = "exception"
        /// A rejected Promise nobody handled.
        case unhandledRejection = "rejection"
    }

    public let level: Level
    public let source: Source
    public let text: String
    public let url: String
    public let line: Int
    public let column: Int
    /// The URL of the frame that printed it, as HybridShell's isolated world saw it (page script
    /// cannot forge it); empty when unknown.
    public let frameURL: String

    public init(level: Level, source: Source, text: String, url: String, line: Int, column: Int, frameURL: String = "") {
        self.level = level
        self.source = source
        self.text = text
        self.url = url
        self.line = line
        self.column = column
        self.frameURL = frameURL
    }

    /// The line WebKit's MiniBrowser prints (`enable-write-console-messages-to-stdout`):
    /// `url:line:column: CONSOLE LOG text`, and `CONSOLE JS ERROR` for uncaught errors; a message
    /// without a source location (an unhandled rejection) has no prefix.
    public var miniBrowserLine: String {
        let label = source == .consoleAPI ? level.rawValue.uppercased() : "JS ERROR"
        guard !url.isEmpty else { return "CONSOLE \(label) \(text)" }
        return "\(url):\(line):\(column): CONSOLE \(label) \(text)"
    }
}
