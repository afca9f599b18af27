/// A module handler's arguments, checked against what it declares: an object with only the known
/// fields, each of the declared type and size. Every problem is an `INVALID_MESSAGE` naming the
/// handler and the field.
package struct ModuleArguments {
    let handler: String
    let members: [String: RawJSON]

    /// `null` (or nothing) counts as an empty object, for handlers without arguments.
    package init(_ data: RawJSON, handler: String, fields: Set<String>) throws(BridgeError) {
        self.handler = handler
        if data.text == "null" {
            members = [:]
            return
        }
        guard data.text.first(where: { !$0.isWhitespace }) == "{" else {
            throw BridgeError(.invalidMessage, "\(handler) takes an object\(fields.isEmpty ? " or nothing" : " with \(fields.sorted().joined(separator: ", "))"), not \(data.value.typeName)",
                              details: ["handler": .string(handler)])
        }
        members = try data.members()
        if let extra = members.keys.sorted().first(where: { !fields.contains($0) }) {
            throw invalid(extra, "is not a field of \(handler) (fields: \(fields.isEmpty ? "none" : fields.sorted().joined(separator: ", ")))")
        }
    }

    package func invalid(_ field: String, _ problem: String) -> BridgeError {
        BridgeError(.invalidMessage, "\(handler): \(field) \(problem)", details: ["handler": .string(handler), "field": .string(field)])
    }

    func raw(_ field: String) throws(BridgeError) -> RawJSON {
        guard let value = members[field] else { throw invalid(field, "is missing") }
        return value
    }

    package func string(_ field: String, maxLength: Int, allowEmpty: Bool = false) throws(BridgeError) -> String {
        guard let value = try optionalString(field, maxLength: maxLength) else { throw invalid(field, "is missing") }
        if !allowEmpty, value.isEmpty { throw invalid(field, "must not be empty") }
        return value
    }

    package func optionalString(_ field: String, maxLength: Int) throws(BridgeError) -> String? {
        guard let raw = members[field] else { return nil }
        guard case .string(let value) = raw.value else { throw invalid(field, "should be a string, not \(raw.value.typeName)") }
        if value.utf8.count > maxLength { throw invalid(field, "is \(value.utf8.count) bytes long; the limit is \(maxLength)") }
        return value
    }

    package func optionalInt(_ field: String, in range: ClosedRange<Int>) throws(BridgeError) -> Int? {
        guard let raw = members[field] else { return nil }
        guard let value = raw.value.intValue else { throw invalid(field, "should be a whole number, not \(raw.value.typeName)") }
        guard range.contains(value) else { throw invalid(field, "must be between \(range.lowerBound) and \(range.upperBound), not \(value)") }
        return value
    }

    package func optionalBool(_ field: String) throws(BridgeError) -> Bool? {
        guard let raw = members[field] else { return nil }
        guard let value = raw.value.boolValue else { throw invalid(field, "should be true or false, not \(raw.value.typeName)") }
        return value
    }

    /// An object of string values (headers).
    func optionalStringTable(_ field: String, maxLength: Int) throws(BridgeError) -> [String: String]? {
        guard let raw = members[field] else { return nil }
        guard let object = raw.value.objectValue else { throw invalid(field, "should be an object of strings, not \(raw.value.typeName)") }
        var table: [String: String] = [:]
        for (key, value) in object {
            guard let text = value.stringValue else { throw invalid("\(field).\(key)", "should be a string, not \(value.typeName)") }
            if key.utf8.count + text.utf8.count > maxLength { throw invalid("\(field).\(key)", "is longer than \(maxLength) bytes") }
            table[key] = text
        }
        return table
    }
}
