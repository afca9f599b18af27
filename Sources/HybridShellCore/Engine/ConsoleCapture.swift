/// Decodes what `bridge-js/src/console-relay.js` posts to the `hybridshellConsole` handler of the
/// isolated world `hybridshell-console` (each record carries `frame`, the posting frame's own URL).
package enum ConsoleCapture {
    package static let handlerName = "hybridshellConsole"
    package static let world = "hybridshell-console"
    package static var script: String { EngineScripts.console }
    package static var relayScript: String { EngineScripts.consoleRelay }

    package static func decode(_ body: String) -> ConsoleMessage? {
        guard let value = try? JSONParser(limits: .init(maxDepth: 2)).parse(body),
              let levelName = value["level"]?.stringValue, let level = ConsoleMessage.Level(rawValue: levelName),
              let sourceName = value["source"]?.stringValue, let source = ConsoleMessage.Source(rawValue: sourceName),
              let text = value["text"]?.stringValue
        else { return nil }
        let frame = value["frame"]?.stringValue ?? ""
        var url = value["url"]?.stringValue ?? ""
        var line = value["line"]?.intValue ?? 0, column = value["column"]?.intValue ?? 0
        // A console call's location comes from the page's own stack, which page script can fake:
        // one that names another origin than the frame's is replaced by the frame's own URL.
        if source == .consoleAPI, !frame.isEmpty, !url.isEmpty, !ConsoleCapture.sameOrigin(url, frame) {
            url = frame
            line = 0
            column = 0
        }
        return ConsoleMessage(level: level, source: source, text: text, url: url, line: line, column: column, frameURL: frame)
    }

    /// Scheme, host and port compared as text (`file:` URLs share one origin).
    static func sameOrigin(_ a: String, _ b: String) -> Bool {
        origin(a) == origin(b)
    }

    private static func origin(_ url: String) -> String {
        guard let separator = url.range(of: "://") else { return url.prefix { $0 != ":" }.lowercased() }
        let scheme = url[..<separator.lowerBound].lowercased()
        if scheme == "file" { return "file://" }
        let authority = url[separator.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let host = authority.split(separator: "@").last.map(String.init) ?? ""
        return scheme + "://" + host.lowercased()
    }
}
