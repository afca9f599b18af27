import Foundation
import Glibc
import Logging
import MCP

/// MCP's stdio transport (one JSON-RPC message per line on stdin and stdout), in place of the SDK's
/// `StdioTransport`: that one makes stdin non-blocking and retries a read that would block every
/// 10 ms — a poll that costs up to 10 ms per request, against the 2 ms a tool call may take
/// (docs/mcp.md, figures). Here one thread sleeps in a blocking `read(2)` and hands each line on
/// as it arrives; the end of stdin ends the stream, and with it the server.
actor McpStdioTransport: Transport {
    nonisolated let logger: Logger
    private let input: Int32
    private let output: Int32
    private let stream: AsyncThrowingStream<Data, any Error>
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    private var started = false

    init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, logger: Logger = Logger(label: "hybridshell.mcp")) {
        self.input = input
        self.output = output
        self.logger = logger
        (stream, continuation) = AsyncThrowingStream.makeStream()
    }

    func connect() async throws {
        guard !started else { return }
        started = true
        let descriptor = input, continuation = self.continuation
        let reader = Thread {
            var pending: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                pending.append(contentsOf: chunk[..<count])
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = pending[..<newline]
                    if !line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) { continuation.yield(Data(line)) }
                    pending.removeSubrange(...newline)
                }
            }
            continuation.finish()
        }
        reader.name = "mcp-stdin"
        reader.start()
    }

    func disconnect() async {
        continuation.finish()
    }

    func send(_ data: Data) async throws {
        var bytes = [UInt8](data)
        bytes.append(UInt8(ascii: "\n"))
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw MCPError.transportError(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)) }
            offset += written
        }
    }

    nonisolated func receive() -> AsyncThrowingStream<Data, any Error> { stream }
}
