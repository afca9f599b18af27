import HybridShell
import MCP

/// The SDK's `Value` and the library's ``JSONValue``, one into the other (tool schemas out, tool
/// arguments in).
enum McpValue {
    static func from(_ value: JSONValue) -> Value {
        switch value {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .number(let number): Int(exactly: number).map { .int($0) } ?? .double(number)
        case .string(let text): .string(text)
        case .array(let items): .array(items.map(from))
        case .object(let members): .object(members.mapValues(from))
        }
    }

    static func json(_ value: Value) -> JSONValue {
        switch value {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .int(let number): .number(Double(number))
        case .double(let number): .number(number)
        case .string(let text): .string(text)
        case .data(let mimeType, let data): .string("data:\(mimeType ?? "application/octet-stream");base64,\(data.base64EncodedString())")
        case .array(let items): .array(items.map(json))
        case .object(let members): .object(members.mapValues(json))
        }
    }
}
