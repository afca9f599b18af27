/// A tool call's `arguments` object, read one typed member at a time; every refusal names the tool
/// and the argument.
struct AgentArguments {
    let tool: AgentTool
    let values: [String: JSONValue]

    func refuseUnknown() throws(AgentToolError) {
        let known = Set(tool.inputSchema["properties"]?.objectValue?.keys.map { $0 } ?? [])
        if let unknown = Set(values.keys).subtracting(known).sorted().first {
            let allowed = known.isEmpty ? "it takes no arguments" : "it takes \(known.sorted().joined(separator: ", "))"
            throw fail("unknown argument \(JSONValue.quoted(unknown)); \(allowed)")
        }
    }

    func fail(_ message: String) -> AgentToolError { AgentToolError("\(tool.name): \(message)") }

    func string(_ name: String) throws(AgentToolError) -> String {
        guard let value = values[name] else { throw fail("the argument \(name) is missing") }
        guard let text = value.stringValue else { throw fail("\(name) must be a string, not \(value.typeName)") }
        return text
    }

    func nonEmptyString(_ name: String) throws(AgentToolError) -> String {
        let text = try string(name)
        guard !text.isEmpty else { throw fail("\(name) must not be empty") }
        return text
    }

    func bool(_ name: String) throws(AgentToolError) -> Bool? {
        guard let value = values[name], !value.isNull else { return nil }
        guard let flag = value.boolValue else { throw fail("\(name) must be true or false, not \(value.typeName)") }
        return flag
    }

    func integer(_ name: String, in range: ClosedRange<Int>) throws(AgentToolError) -> Int? {
        guard let value = values[name], !value.isNull else { return nil }
        guard let number = value.intValue, range.contains(number) else {
            throw fail("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(value.jsonText)")
        }
        return number
    }

    func strings(_ name: String) throws(AgentToolError) -> [String] {
        guard let value = values[name] else { throw fail("the argument \(name) is missing") }
        guard let items = value.arrayValue, !items.isEmpty else { throw fail("\(name) must be a non-empty array of strings") }
        var texts: [String] = []
        for item in items {
            guard let text = item.stringValue else { throw fail("\(name) must hold strings only, not \(item.typeName)") }
            texts.append(text)
        }
        return texts
    }

    func cursor() throws(AgentToolError) -> Int { try integer("since", in: 0...Int.max / 2) ?? 0 }

    func optionalTarget() throws(AgentToolError) -> ElementTarget? {
        let ref = values["ref"], selector = values["selector"]
        if ref != nil, selector != nil { throw fail("give either ref or selector, not both") }
        if ref != nil {
            let text = try nonEmptyString("ref")
            guard AgentRefs.isWellFormed(text) else {
                throw fail("\(JSONValue.quoted(text)) is not a ref; refs look like e3 and come from the last snapshot")
            }
            return .ref(text)
        }
        if selector != nil { return .selector(try nonEmptyString("selector")) }
        return nil
    }

    func target() throws(AgentToolError) -> ElementTarget {
        guard let target = try optionalTarget() else { throw fail("give a ref (from snapshot) or a CSS selector") }
        return target
    }

    func mockAnswer() throws(AgentToolError) -> MockHandlers.Behaviour {
        switch (values["result"], values["error"]) {
        case (let result?, nil): return .result(result)
        case (nil, let error?):
            guard let object = error.objectValue, let codeName = object["code"]?.stringValue, let message = object["message"]?.stringValue else {
                throw fail("error must be an object {\"code\": …, \"message\": …}")
            }
            guard let code = BridgeError.Code(rawValue: codeName) else {
                throw fail("unknown error code \(JSONValue.quoted(codeName)); use one of \(BridgeError.Code.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return .error(BridgeError(code, message, details: object["details"]))
        default: throw fail("give exactly one of result or error")
        }
    }
}
