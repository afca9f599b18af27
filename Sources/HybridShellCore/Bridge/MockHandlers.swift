import Foundation

/// Handlers described in a JSON file (`hybrid-run --handlers FILE.json`), so page tests and legacy
/// pages run against fake native APIs:
///
///     {
///       "device.info": { "result": { "model": "kiosk-7" } },
///       "payment.pay": { "error": { "code": "HANDLER_ERROR", "message": "card declined" } },
///       "storage.set": { "echo": true },
///       "slow.thing":  { "result": "done", "delayMs": 200 },
///       "*":           { "echo": true }
///     }
///
/// `"*"` is the default handler (``BridgeHandlers/defaultHandlerName``): what
/// WebViewJavascriptBridge's `send(data, callback)` calls.
public struct MockHandlers: Sendable, Equatable {
    public enum Behaviour: Sendable, Equatable {
        case result(JSONValue)
        case error(BridgeError)
        case echo
    }

    public struct Entry: Sendable, Equatable {
        public let name: String
        public let behaviour: Behaviour
        public let delayMilliseconds: Int

        package init(name: String, behaviour: Behaviour, delayMilliseconds: Int = 0) {
            self.name = name
            self.behaviour = behaviour
            self.delayMilliseconds = delayMilliseconds
        }
    }

    public let entries: [Entry]

    package init(entries: [Entry]) { self.entries = entries }

    /// Reads a handlers file; every problem names the file, line and key.
    public static func load(path: String) throws(ShellError) -> MockHandlers {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .invalidArgument("cannot read the handlers file \(path)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .invalidArgument("\(path): the handlers file is not UTF-8 text")
        }
        return try parse(text, file: path)
    }

    public static func parse(_ text: String, file: String) throws(ShellError) -> MockHandlers {
        let root: [(key: String, value: JSONValue, line: Int)]
        do {
            root = try JSONTopLevel.members(text)
        } catch {
            throw .invalidArgument("\(file):\(TextPosition.line(of: error.offset, in: text)): \(error)")
        }
        var entries: [Entry] = []
        for (name, value, line) in root {
            func fail(_ message: String) -> ShellError { .invalidArgument("\(file):\(line): \(JSONValue.quoted(name)): \(message)") }
            guard !name.isEmpty else { throw fail("a handler needs a name") }
            guard let object = value.objectValue else { throw fail("expected an object like {\"result\": …}, {\"error\": …} or {\"echo\": true}") }
            let known: Set<String> = ["result", "error", "echo", "delayMs"]
            if let unknown = Set(object.keys).subtracting(known).sorted().first {
                throw fail("unknown key \(JSONValue.quoted(unknown)) (allowed: result, error, echo, delayMs)")
            }
            let kinds = ["result", "error", "echo"].filter { object[$0] != nil }
            guard kinds.count == 1 else { throw fail("give exactly one of result, error or echo") }
            var delay = 0
            if let value = object["delayMs"] {
                guard let milliseconds = value.intValue, (0...600_000).contains(milliseconds) else {
                    throw fail("delayMs must be a whole number of milliseconds between 0 and 600000")
                }
                delay = milliseconds
            }
            let behaviour: Behaviour
            switch kinds[0] {
            case "result":
                behaviour = .result(object["result"]!)
            case "echo":
                guard object["echo"] == .bool(true) else { throw fail("echo must be true") }
                behaviour = .echo
            default:
                guard let error = object["error"]?.objectValue, let codeName = error["code"]?.stringValue else {
                    throw fail("error must be an object with a code and a message")
                }
                guard let code = BridgeError.Code(rawValue: codeName) else {
                    throw fail("unknown error code \(JSONValue.quoted(codeName)) (use one of \(BridgeError.Code.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                guard let message = error["message"]?.stringValue else { throw fail("error.message must be a string") }
                behaviour = .error(BridgeError(code, message, details: error["details"]))
            }
            entries.append(Entry(name: name, behaviour: behaviour, delayMilliseconds: delay))
        }
        return MockHandlers(entries: entries)
    }

    @EngineActor
    public func register(in handlers: BridgeHandlers) {
        for entry in entries {
            let behaviour = entry.behaviour
            let respond: @Sendable (RawJSON) throws -> RawJSON = { data in
                switch behaviour {
                case .result(let value): return RawJSON(unchecked: value.jsonText)
                case .error(let error): throw error
                case .echo: return data
                }
            }
            if entry.delayMilliseconds == 0 {
                handlers.registerRaw(entry.name, sync: { data, _ in try respond(data) })
            } else {
                let delay = Duration.milliseconds(entry.delayMilliseconds)
                handlers.registerRaw(entry.name) { data, _ in
                    try await Task.sleep(for: delay)
                    return try respond(data)
                }
            }
        }
    }
}

/// The members of a JSON document's top-level object, with the line each key is on.
enum JSONTopLevel {
    static func members(_ text: String) throws(JSONSyntaxError) -> [(key: String, value: JSONValue, line: Int)] {
        try JSONParser.withBytes(of: text) { bytes throws(JSONSyntaxError) in
            var scanner = JSONScanner(bytes: bytes, limits: .init())
            scanner.skipWhitespace()
            guard try scanner.peek() == UInt8(ascii: "{") else { throw scanner.unexpected() }
            var members: [(String, JSONValue, Int)] = []
            try scanner.scanObject(depth: 1) { scanner, key, offset throws(JSONSyntaxError) in
                members.append((key, try scanner.parseValue(depth: 1), TextPosition.line(of: offset, in: bytes)))
            }
            scanner.skipWhitespace()
            guard scanner.index == bytes.count else { throw scanner.error(.trailingCharacters) }
            return members
        }
    }
}
