import Foundation
import Glibc
import HybridShell
@testable import hybrid_run
import MCP
import Testing

/// `hybrid-run mcp`'s own stdio transport and the SDK ↔ library value mapping, over pipes (no page).
@Suite("MCP stdio transport and values")
struct McpStdioTransportTests {
    @Test func readsOneMessagePerLineAndEndsWithTheInput() async throws {
        var input: [Int32] = [0, 0], output: [Int32] = [0, 0]
        #expect(pipe(&input) == 0 && pipe(&output) == 0)
        defer { close(input[0]); close(output[0]); close(output[1]) }
        let transport = McpStdioTransport(input: input[0], output: output[1])
        try await transport.connect()
        let text = "{\"a\":1}\n\n  \r\n{\"b\":[2,\n"
        _ = text.withCString { write(input[1], $0, strlen($0)) }
        _ = "3]}\n{\"c\":true}".withCString { write(input[1], $0, strlen($0)) }
        close(input[1])  // the client leaves; a last line without "\n" is not a message
        var lines: [String] = []
        for try await data in await transport.receive() { lines.append(String(decoding: data, as: UTF8.self)) }
        #expect(lines == ["{\"a\":1}", "{\"b\":[2,", "3]}"])

        try await transport.send(Data("{\"ok\":true}".utf8))
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(output[0], &buffer, buffer.count)
        #expect(String(decoding: buffer[..<max(0, count)], as: UTF8.self) == "{\"ok\":true}\n")
    }

    @Test func valuesMapBothWays() {
        let value: JSONValue = ["n": 2, "x": 1.5, "s": "t", "b": true, "z": nil, "a": [1, "two"]]
        #expect(McpValue.from(value) == .object(["n": .int(2), "x": .double(1.5), "s": .string("t"), "b": .bool(true), "z": .null,
                                                 "a": .array([.int(1), .string("two")])]))
        #expect(McpValue.json(McpValue.from(value)) == value)
        #expect(McpServer.tools.map(\.name) == AgentTool.allCases.map(\.name))
    }
}
