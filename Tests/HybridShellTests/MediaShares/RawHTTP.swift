import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A deliberately raw HTTP/1.1 client for the loopback media listener's bad-input tests: any
/// method, any `Host`, any path bytes, and a client that hangs up mid-body. Blocking socket calls
/// run on their own thread (never on the cooperative pool), each with a 30 s receive time-out.
enum RawHTTP {
    struct Response: Sendable, CustomStringConvertible {
        let status: Int
        let headers: [String: String]
        let body: Data
        var description: String { "\(status) \(headers) \(body.count) bytes" }
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Sends `head` (request line and headers, without the final blank line; `Connection: close`
    /// is added) and reads the whole response until the server closes.
    static func send(port: Int, _ head: String) async throws -> Response {
        let raw = try await onThread { try exchange(port: port, head: head, stopAfter: nil) }
        return try parse(raw)
    }

    /// Sends `head` and reads the response to its end without keeping it; returns its size.
    static func drain(port: Int, _ head: String) async throws -> Int {
        try await onThread {
            var total = 0
            _ = try exchange(port: port, head: head, stopAfter: nil, keep: false, counted: { total += $0 })
            return total
        }
    }

    /// Sends `head`, reads about `bytes` bytes of the response, then closes the connection.
    static func hangUp(port: Int, _ head: String, after bytes: Int) async throws -> Int {
        try await onThread { try exchange(port: port, head: head, stopAfter: bytes).count }
    }

    /// A client that reads `first` bytes, then stops reading until ``resume()``, then reads to the
    /// end: a stalled reader whose server-side body is cut meanwhile.
    final class Stalled: @unchecked Sendable {
        private let go = DispatchSemaphore(value: 0)
        private let paused: Task<Void, any Error>
        private let done: Task<Int, any Error>

        init(port: Int, _ head: String, first: Int) {
            let go = go
            let (pausedStream, pausedSignal) = AsyncThrowingStream<Void, any Error>.makeStream()
            let total = Task { () async throws -> Int in
                try await RawHTTP.onThread {
                    do {
                        return try exchange(port: port, head: head, stopAfter: nil, pauseAfter: first) {
                            pausedSignal.finish()
                            go.wait()
                        }.count
                    } catch {
                        pausedSignal.finish(throwing: error)
                        throw error
                    }
                }
            }
            done = total
            paused = Task { for try await _ in pausedStream {} }
        }

        /// Returns once `first` bytes have been read and the client has stopped reading.
        func stopped() async throws { try await paused.value }

        /// Reads on to the end; returns how many bytes (head and body) arrived in all.
        func resume() async throws -> Int {
            go.signal()
            return try await done.value
        }
    }

    private static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    private static func exchange(port: Int, head: String, stopAfter: Int?, pauseAfter: Int? = nil,
                                 pause: () -> Void = {}, keep: Bool = true, counted: (Int) -> Void = { _ in }) throws -> Data {
        var pauseAfter = pauseAfter
        // CLOEXEC: a web process spawned meanwhile by another test must not inherit the socket
        // (it would keep the connection open after this client hangs up).
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: \(errno)") }
        defer { close(socket) }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var small: Int32 = 4096  // a small receive buffer: hanging up leaves the server mid-body
        setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect to 127.0.0.1:\(port): \(errno)") }
        let request = Array((head + "\r\nConnection: close\r\n\r\n").utf8)
        guard request.withUnsafeBytes({ Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
            throw Failure(description: "send: \(errno)")
        }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let stopAfter, received.count >= stopAfter { return received }
            if let limit = pauseAfter, received.count >= limit {
                pauseAfter = nil
                pause()
            }
            let count = recv(socket, &buffer, buffer.count, 0)
            if count == 0 { return received }
            if count < 0, errno == EINTR { continue }  // a signal (a debugger attaching) is not the server's doing
            guard count > 0 else { throw Failure(description: "recv after \(received.count) bytes: errno \(errno)") }
            counted(count)
            if keep { received.append(contentsOf: buffer[0..<count]) }
        }
    }

    private static func parse(_ raw: Data) throws -> Response {
        guard let end = raw.range(of: Data("\r\n\r\n".utf8)) else { throw Failure(description: "no response head in \(raw.count) bytes") }
        var lines = String(decoding: raw[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure(description: "bad status line") }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Response(status: status, headers: headers, body: Data(raw[end.upperBound...]))
    }
}
