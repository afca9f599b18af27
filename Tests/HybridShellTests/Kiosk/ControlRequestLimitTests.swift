import Foundation
import Glibc
import Testing
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit

/// Issue 31, item 20: a control request over 64 KiB gets the JSON refusal, not a reset — also
/// for a client that sends its whole request before reading (as `socat` or Python's `sendall`).
@Suite("Control socket: too-long requests")
@EngineActor
struct ControlRequestLimitTests {
    /// Connects (blocking), sends all of `bytes`, then reads to the end: the reply, or what failed.
    nonisolated static func sendAllThenRead(_ bytes: [UInt8], to path: String) async -> String {
        await withCheckedContinuation { continuation in
            Thread {
                let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
                defer { close(descriptor) }
                var timeout = timeval(tv_sec: 20, tv_usec: 0)
                setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                let connected = (try? UnixSocketCalls.withAddress(of: path) { connect(descriptor, $0, $1) }) ?? -1
                guard connected == 0 else { return continuation.resume(returning: "connect: \(UnixSocketCalls.errorText(errno))") }
                var offset = 0
                while offset < bytes.count {
                    let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
                    guard sent > 0 else { return continuation.resume(returning: "send: \(UnixSocketCalls.errorText(errno))") }
                    offset += sent
                }
                var received: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = recv(descriptor, &chunk, chunk.count, 0)
                    if count > 0 { received += chunk[..<count]; continue }
                    if count < 0 { return continuation.resume(returning: "recv: \(UnixSocketCalls.errorText(errno))") }
                    break
                }
                continuation.resume(returning: String(decoding: received, as: UTF8.self))
            }.start()
        }
    }

    @Test(arguments: [70_000, 1_000_000])
    func aTooLongRequestSentWholeGetsTheRefusal(length: Int) async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let (listener, requests) = try HeldRequests.okListener(at: directory.socket)
        defer { listener.close() }
        let line = Array(("open " + String(repeating: "a", count: length) + "\n").utf8)
        let reply = await Self.sendAllThenRead(line, to: directory.socket)
        #expect(reply == ControlReply.error("request too long: a request is one line of at most 65536 bytes") + "\n")
        #expect(requests.lines.isEmpty)
        // The listener still answers.
        #expect(try await sendControl(.status, at: directory.socket) == #"{"ok":true}"#)
    }
}
