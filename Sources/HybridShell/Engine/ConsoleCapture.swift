/// Decodes what `bridge-js/src/console.js` posts to the `hybridshellConsole` handler.
enum ConsoleCapture {
    static let handlerName = "hybridshellConsole"
    static var script: String { BridgeScripts.console }

    static func decode(_ body: String) -> ConsoleMessage? {
        guard let value = try? JSONParser(limits: .init(maxDepth: 2)).parse(body),
              let levelName = value["level"]?.stringValue, let level = ConsoleMessage.Level(rawValue: levelName),
              let sourceName = value["source"]?.stringValue, let source = ConsoleMessage.Source(rawValue: sourceName),
              let text = value["text"]?.stringValue
        else { return nil }
        return ConsoleMessage(level: level, source: source, text: text,
                              url: value["url"]?.stringValue ?? "",
                              line: value["line"]?.intValue ?? 0, column: value["column"]?.intValue ?? 0)
    }
}
