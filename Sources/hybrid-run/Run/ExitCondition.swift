import HybridShell
/// When `hybrid-run` stops on its own (`--exit-after`).
enum ExitCondition: Sendable, Equatable {
    /// When the page has finished loading.
    case load
    /// When the page calls `window.close()` (or the window is closed).
    case close
    /// After this long.
    case duration(Duration)

    /// Parses `load`, `close` or a number of seconds (`2`, `0.5`).
    init(parsing text: String) throws(ShellError) {
        switch text.lowercased() {
        case "load": self = .load
        case "close": self = .close
        default:
            // 0 would exit before WebKit's processes have started, leaving them to find no display.
            guard let seconds = Double(text), seconds.isFinite, seconds > 0 else {
                throw .invalidArgument("--exit-after takes load, close or a number of seconds greater than 0, not \(JSONValue.quoted(text))")
            }
            self = .duration(.milliseconds(Int64((seconds * 1000).rounded())))
        }
    }
}
