import Foundation
import HybridShell
import MCP

/// The SDK's server with the shell's tools: `tools/list` from ``AgentTool``, `tools/call` handed to
/// an ``AgentSession``. Only the wire is here; what a tool does is the library's.
enum McpServer {
    static let instructions = """
        A HybridShell page (WebKitGTK with its JavaScript bridge and native modules). Call open with a URL, \
        snapshot to see the page's interactive elements with refs, then click/type/select/hover by ref. \
        evaluate runs JavaScript; console, events and native_calls read logs since a cursor; native_mock \
        answers the page's native calls with fixed results.
        """

    static var tools: [Tool] {
        AgentTool.allCases.map { Tool(name: $0.name, description: $0.description, inputSchema: McpValue.from($0.inputSchema)) }
    }

    /// Serves `session` over `transport` until the client leaves (stdin closes).
    static func serve(_ session: AgentSession, transport: any Transport) async throws {
        let server = Server(name: "hybrid-run", version: HybridShellVersion.current, instructions: instructions,
                            capabilities: .init(tools: .init(listChanged: false)))
        let tools = Self.tools
        await server.withMethodHandler(ListTools.self) { _ in ListTools.Result(tools: tools) }
        await server.withMethodHandler(CallTool.self) { parameters in
            let arguments = parameters.arguments?.mapValues(McpValue.json)
            let result = await session.call(tool: parameters.name, arguments: arguments)
            return CallTool.Result(content: result.content.map(content), isError: result.isError)
        }
        try await server.start(transport: transport)
        await server.waitUntilCompleted()
        await server.stop()
    }

    private static func content(_ item: AgentToolResult.Content) -> Tool.Content {
        switch item {
        case .text(let text): .text(text)
        case .png(let bytes): .image(data: Data(bytes).base64EncodedString(), mimeType: "image/png")
        }
    }
}
