import HybridShell

extension WebDriverGate {
    /// The `webkitgtk:browserOptions` keys WebKitWebDriver 2.50 reads besides `binary` and `args`;
    /// any other key is refused (deny by default: a later WebKitWebDriver may give one a meaning).
    static let passedBrowserOptions: Set<String> = ["useOverlayScrollbars", "certificates"]

    /// The new-session body to forward: the client's capabilities with every
    /// `webkitgtk:browserOptions` (in `alwaysMatch` and each `firstMatch`) pinned to ``binary`` and
    /// `--automation` + ``arguments`` + the client's own `args`, or added to `alwaysMatch` when
    /// the client named none (WebKitWebDriver would start MiniBrowser otherwise).
    ///
    /// The body is parsed with the project's strict parser (duplicate keys refused) and written
    /// anew, so WebKitWebDriver reads exactly what was checked.
    func rewriteNewSession(_ body: [UInt8]) -> Result<[UInt8], WebDriverRefusal> {
        do {
            guard let text = String(validating: body, as: UTF8.self) else { throw WebDriverRefusal.invalid("the new-session body is not UTF-8") }
            let parsed: JSONValue
            do { parsed = try JSONParser().parse(text) } catch { throw WebDriverRefusal.invalid("the new-session body is not valid JSON: \(error)") }
            guard case .object(var request) = parsed else { throw WebDriverRefusal.invalid("the new-session body is \(parsed.typeName), not an object") }
            guard case .object(var capabilities)? = request["capabilities"] else {
                throw WebDriverRefusal.invalid("a new session needs a \"capabilities\" object (W3C WebDriver; JSON Wire Protocol's desiredCapabilities is not read)")
            }
            var pinned = false
            if let always = capabilities["alwaysMatch"] {
                guard case .object(var members) = always else { throw WebDriverRefusal.invalid("capabilities.alwaysMatch is \(always.typeName), not an object") }
                pinned = try pin(&members)
                capabilities["alwaysMatch"] = .object(members)
            }
            if let first = capabilities["firstMatch"] {
                guard case .array(let entries) = first else { throw WebDriverRefusal.invalid("capabilities.firstMatch is \(first.typeName), not an array") }
                capabilities["firstMatch"] = .array(try entries.map { entry in
                    guard case .object(var members) = entry else { throw WebDriverRefusal.invalid("a capabilities.firstMatch entry is \(entry.typeName), not an object") }
                    if try pin(&members) { pinned = true }
                    return .object(members)
                })
            }
            if !pinned {
                var members = capabilities["alwaysMatch"]?.objectValue ?? [:]
                members["webkitgtk:browserOptions"] = .object(["binary": .string(binary), "args": .array(sessionArguments([]).map { .string($0) })])
                capabilities["alwaysMatch"] = .object(members)
            }
            request["capabilities"] = .object(capabilities)
            return .success(Array(JSONValue.object(request).jsonText.utf8))
        } catch let refusal as WebDriverRefusal {
            return .failure(refusal)
        } catch {
            return .failure(.invalid("\(error)"))
        }
    }

    /// `--automation`, hybrid-run webdriver's own flags, then the client's (its `--automation` dropped).
    func sessionArguments(_ client: [String]) -> [String] {
        ["--automation"] + arguments + client.filter { $0 != "--automation" }
    }

    /// Rewrites the `webkitgtk:browserOptions` of one capabilities object; false when it has none.
    private func pin(_ members: inout [String: JSONValue]) throws(WebDriverRefusal) -> Bool {
        guard let value = members["webkitgtk:browserOptions"] else { return false }
        guard case .object(var options) = value else {
            throw .invalid("webkitgtk:browserOptions is \(value.typeName), not an object")
        }
        if let unknown = options.keys.sorted().first(where: { !["binary", "args"].contains($0) && !Self.passedBrowserOptions.contains($0) }) {
            throw .sessionNotCreated("hybrid-run webdriver does not pass webkitgtk:browserOptions.\(unknown) on")
        }
        if let named = options["binary"] {
            guard case .string(let path) = named, path == binary || isSameExecutable(path) else {
                throw .sessionNotCreated("hybrid-run webdriver runs only \(binary); webkitgtk:browserOptions.binary names \(named.stringValue.map(JSONValue.quoted) ?? named.typeName) (leave it out)")
            }
        }
        var client: [String] = []
        if let args = options["args"] {
            guard case .array(let items) = args, let strings = Optional(items.compactMap(\.stringValue)), strings.count == items.count else {
                throw .invalid("webkitgtk:browserOptions.args must be an array of strings")
            }
            client = strings
        }
        options["binary"] = .string(binary)
        options["args"] = .array(sessionArguments(client).map { .string($0) })
        members["webkitgtk:browserOptions"] = .object(options)
        return true
    }
}
