import Foundation
import HybridShell
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A loopback HTTP/1.1 server for tests: serves `pages/`, lets a test add routes, and records
/// every request. Two of them give a test two origins (two ports).
///
/// Deliberately tiny: one accept thread, one thread per connection, `Connection: close` on every
/// response. (FlyingFox's socket pool crashed under parallel tests here, in its own shutdown path.)
final class FixtureServer: @unchecked Sendable {
    struct Request: Sendable {
        let method: String
        let path: String
        let query: String
        let headers: [String: String]
        let body: Data
    }

    struct Response: Sendable {
        var status = 200
        var headers: [String: String] = [:]
        var body = Data()
        /// Sends the body one byte per `pace` (a server that trickles) instead of all at once.
        var pace: Duration?

        static func text(_ text: String, type: String = "text/plain; charset=utf-8", headers: [String: String] = [:]) -> Response {
            var all = headers
            all["Content-Type"] = type
            return Response(status: 200, headers: all, body: Data(text.utf8))
        }
    }

    typealias Handler = @Sendable (Request) -> Response

    let port: UInt16
    private let listener: Int32
    private let state = Mutex<(requests: [Request], routes: [String: Handler])>(([], [:]))
    private let root = Fixtures.repository.appendingPathComponent("pages")

    var origin: String { "http://127.0.0.1:\(port)" }
    func url(_ path: String) -> String { "\(origin)/\(path)" }
    var requests: [Request] { state.withLock { $0.requests } }

    /// - Parameter port: 0 for any free port; a given one brings a stopped server back (a network
    ///   that comes back).
    static func start(port: UInt16 = 0) async throws -> FixtureServer { try FixtureServer(port: port) }

    private init(port requested: UInt16) throws {
        // Close-on-exec, the listener and every connection: WebKit starts processes in this test
        // process at any moment, and one that inherited a connection kept it open after the server
        // closed it (the client then waits for an end that does not come).
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.EMFILE) }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = requested.bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 64) == 0 else { close(listener); throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "fixture server \(port)"
        thread.start()
    }

    /// Adds (or replaces) a handler for an exact path such as `/set-cookie`.
    func route(_ path: String, _ handler: @escaping Handler) {
        state.withLock { $0.routes[path] = handler }
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let connection = UnixSocketCalls.accept(listener, nonBlocking: false)
            if connection < 0 {
                if errno == EINTR { continue }
                return  // the listener was closed
            }
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        guard let request = readRequest(connection) else { return }
        let handler = state.withLock { state -> Handler? in
            state.requests.append(request)
            return state.routes[request.path]
        }
        let response = handler?(request) ?? file(request.path)
        write(response, to: connection)
    }

    private func readRequest(_ connection: Int32) -> Request? {
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        let separator = Data("\r\n\r\n".utf8)
        var headerEnd: Range<Data.Index>?
        while headerEnd == nil {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<count])
            headerEnd = buffer.range(of: separator)
        }
        let head = String(decoding: buffer[..<headerEnd!.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(buffer[headerEnd!.upperBound...])
        let expected = Int(headers["content-length"] ?? "0") ?? 0
        while body.count < expected {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { break }
            body.append(contentsOf: chunk[0..<count])
        }
        let target = String(requestLine[1])
        let path = String(target.split(separator: "?", maxSplits: 1).first ?? "")
        let query = target.contains("?") ? String(target.split(separator: "?", maxSplits: 1)[1]) : ""
        return Request(method: String(requestLine[0]), path: path.removingPercentEncoding ?? path, query: query,
                       headers: headers, body: body)
    }

    private func file(_ path: String) -> Response {
        let relative = path.hasPrefix("/") ? String(path.dropFirst()) : path
        let url = root.appendingPathComponent(relative).standardizedFileURL
        guard url.path.hasPrefix(root.path), let data = try? Data(contentsOf: url) else {
            return Response(status: 404, headers: ["Content-Type": "text/plain"], body: Data("not found: \(path)".utf8))
        }
        let types = ["html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css",
                     "json": "application/json", "png": "image/png", "txt": "text/plain; charset=utf-8"]
        return Response(status: 200, headers: ["Content-Type": types[url.pathExtension] ?? "application/octet-stream"], body: data)
    }

    private func write(_ response: Response, to connection: Int32) {
        let reasons = [200: "OK", 204: "No Content", 302: "Found", 404: "Not Found", 500: "Internal Server Error"]
        var head = "HTTP/1.1 \(response.status) \(reasons[response.status] ?? "Status")\r\n"
        var headers = response.headers
        // A route may announce more than it sends, then close: a connection cut mid-download.
        headers["Content-Length"] = headers["Content-Length"] ?? String(response.body.count)
        headers["Connection"] = "close"
        headers["Cache-Control"] = headers["Cache-Control"] ?? "no-store"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        guard let pace = response.pace else {
            _ = send(Data(head.utf8) + response.body, to: connection)
            return
        }
        guard send(Data(head.utf8), to: connection) else { return }
        for byte in response.body {
            Thread.sleep(forTimeInterval: Double(pace.components.attoseconds) / 1e18 + Double(pace.components.seconds))
            guard send(Data([byte]), to: connection) else { return }
        }
    }

    /// Sends all of `bytes`; false when the client has gone.
    private func send(_ bytes: Data, to connection: Int32) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = Glibc.send(connection, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }
}
