import Foundation
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit
@testable import hybrid_run

/// The blocking client, on a thread of its own: on the engine actor it would block the very loop
/// that has to answer, and in a task it would pin one of the few cooperative threads.
func sendControl(_ request: ControlRequest, at path: String, timeout: Duration = .seconds(30)) async throws -> String {
    try await sendControlLine(request.line, at: path, timeout: timeout)
}

func sendControlLine(_ line: String, at path: String, timeout: Duration = .seconds(30)) async throws -> String {
    try await withCheckedThrowingContinuation { continuation in
        Thread {
            continuation.resume(with: Result { try ControlClient.exchange(line, socketPath: path, timeout: timeout) })
        }.start()
    }
}

/// A fresh directory under /tmp (short, because a socket path must fit in 107 bytes).
struct SocketDirectory {
    let path = "/tmp/hybrid-ctl-\(UUID().uuidString.prefix(8))"
    var socket: String { path + "/kiosk.sock" }

    init(mode: mode_t = 0o700) throws {
        guard mkdir(path, mode) == 0, chmod(path, mode) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Requests a test handler has seen, and the replies it holds back to answer later.
@EngineActor
final class HeldRequests {
    private(set) var lines: [String] = []
    private var replies: [UnixSocketListener.Reply] = []
    private var arrivals: AsyncStream<String>.Iterator
    private let continuation: AsyncStream<String>.Continuation

    init() {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        arrivals = stream.makeAsyncIterator()
        self.continuation = continuation
    }

    /// A listener that records every request and answers `{"ok":true}`.
    static func okListener(at path: String) throws -> (UnixSocketListener, HeldRequests) {
        let requests = HeldRequests()
        let listener = try UnixSocketListener(path: path) { line, reply in
            requests.record(line)
            reply(ControlReply.ok())
        }
        return (listener, requests)
    }

    func record(_ line: String) {
        lines.append(line)
        continuation.yield(line)
    }

    func hold(_ line: String, _ reply: @escaping UnixSocketListener.Reply) {
        replies.append(reply)
        record(line)
    }

    func answerAll(_ text: String) { replies.forEach { $0(text) } }

    /// The next request line; nil once ``finish()`` was called (the client is done).
    func nextArrival() async -> String? {
        var iterator = arrivals
        defer { arrivals = iterator }
        return await iterator.next(isolation: #isolation)
    }

    func finish() { continuation.finish() }
}

/// A connected, non-blocking socket without the client's protocol.
func connectRawControlClient(to path: String) throws -> Int32 {
    let descriptor = UnixSocketCalls.makeSocket()
    let result = try UnixSocketCalls.withAddress(of: path) { connect(descriptor, $0, $1) }
    guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    return descriptor
}

/// A socket file nobody listens on, as a kiosk that was killed leaves it.
func makeStaleSocket(at path: String) throws {
    let descriptor = UnixSocketCalls.makeSocket()
    defer { close(descriptor) }
    let result = try UnixSocketCalls.withAddress(of: path) { bind(descriptor, $0, $1) }
    guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}

/// Runs the built `hybrid-run` as the user nobody (`setpriv` from util-linux).
func runAsNobody(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> (status: Int32, stdout: String, stderr: String) {
    let out = try CloseOnExecPipe(), err = try CloseOnExecPipe()
    let program = CommandLineRun.buildDirectory.appendingPathComponent("hybrid-run").path
    let pid = try ChildProcess.spawn("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", program] + arguments,
                                     environment: ProcessInfo.processInfo.environment.merging(extra) { $1 },
                                     stdout: out.writing.fileDescriptor, stderr: err.writing.fileDescriptor)
    try out.writing.close()
    try err.writing.close()
    let status = await ChildProcess.wait(for: pid)
    // The child has exited and its few bytes are in the socket buffers: these reads end at once.
    let stdout = String(decoding: out.reading.readDataToEndOfFile(), as: UTF8.self)
    let stderr = String(decoding: err.reading.readDataToEndOfFile(), as: UTF8.self)
    return (status, stdout, stderr)
}
