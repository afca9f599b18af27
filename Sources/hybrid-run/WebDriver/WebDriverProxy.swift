import Foundation
import Glibc
import HybridShell

/// The socket side of `hybrid-run webdriver`: accepts WebDriver clients on a loopback address, asks
/// ``WebDriverGate`` about each request, and relays the accepted ones to WebKitWebDriver on its
/// private port and its answers back, byte for byte (the new-session body excepted).
///
/// One thread per client connection, blocking I/O: WebDriver clients keep one or a few
/// connections and send one command at a time. Each forwarded request gets its own connection
/// to WebKitWebDriver, so nothing of one request can run into the next.
final class WebDriverProxy: @unchecked Sendable {  // immutable after init; the count is locked
    let gate: WebDriverGate
    let upstreamPort: UInt16
    let log: @Sendable (String) -> Void
    /// Connections served at once; more are answered 503 and closed.
    static let maximumConnections = 64
    /// An idle client connection is closed after this long (clients reconnect).
    static let idleSeconds = 600
    private let count = NSLock()
    private var connections = 0

    init(gate: WebDriverGate, upstreamPort: UInt16, log: @escaping @Sendable (String) -> Void) {
        self.gate = gate
        self.upstreamPort = upstreamPort
        self.log = log
    }

    /// Accepts connections on `listening` for as long as the process runs.
    func serve(listening: Int32) -> Never {
        while true {
            let descriptor = UnixSocketCalls.accept(listening, nonBlocking: false)
            guard descriptor >= 0 else {
                if errno != EINTR, errno != ECONNABORTED { usleep(100_000) }  // out of descriptors: let some close
                continue
            }
            let client = SocketStream(descriptor: descriptor)
            count.lock()
            let admitted = connections < Self.maximumConnections
            if admitted { connections += 1 }
            count.unlock()
            guard admitted else {
                try? client.write(WebDriverRefusal(status: 503, error: "unknown error", message: "too many connections").response)
                continue
            }
            Thread.detachNewThread { [self] in
                serve(client)
                count.lock()
                connections -= 1
                count.unlock()
            }
        }
    }

    /// Serves the requests of one connection until it closes or a request is refused.
    func serve(_ client: SocketStream) {
        client.setReadTimeout(seconds: Self.idleSeconds)
        // One connection to WebKitWebDriver per client connection, kept while both keep it alive.
        var upstream: SocketStream?
        do {
            while let bytes = try client.readHead(limit: HTTPMessageHead.maximumLength) {
                let head: HTTPMessageHead
                do { head = try HTTPMessageHead(parsing: bytes) } catch {
                    return refuse(.invalid("malformed request: \(error)"), to: client, request: "?")
                }
                let request = "\(head.parts[0]) \(head.parts[1])"
                switch gate.decide(head) {
                case .refuse(let refusal):
                    return refuse(refusal, to: client, request: request)
                case .forward(let forwarded, let length, let sendContinue, let newSession):
                    if sendContinue { try client.write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) }
                    var body: [UInt8] = []
                    try client.read(exactly: length) { body += $0 }
                    var message = forwarded + body
                    if newSession {
                        switch gate.newSessionRequest(head: forwarded, body: body) {
                        case .failure(let refusal): return refuse(refusal, to: client, request: request)
                        case .success(let rewritten): message = rewritten
                        }
                    }
                    guard let keepAlive = try exchange(message, over: &upstream, answering: client) else {
                        return refuse(WebDriverRefusal(status: 502, error: "unknown error", message: "WebKitWebDriver does not answer on 127.0.0.1:\(upstreamPort)"),
                                      to: client, request: request)
                    }
                    if !keepAlive { upstream = nil }
                    let closing = head.values("Connection").contains { $0.lowercased().contains("close") } || head.parts[2] == "HTTP/1.0"
                    guard keepAlive, !closing else { return }
                }
            }
        } catch {
            // A side hung up or sent what cannot be relayed: the connection ends (WebDriver clients
            // reconnect), nothing else is affected.
        }
    }

    /// Sends one request to WebKitWebDriver and relays its response; returns whether the
    /// connection stays open, or nil when WebKitWebDriver cannot be reached. A kept connection that
    /// WebKitWebDriver closed meanwhile (it took no byte of the request, so nothing ran) is
    /// replaced once.
    private func exchange(_ message: [UInt8], over upstream: inout SocketStream?, answering client: SocketStream) throws -> Bool? {
        for _ in 0..<2 {
            let reused = upstream != nil
            if upstream == nil { upstream = SocketStream.connect(loopbackPort: upstreamPort) }
            guard let connection = upstream else { return nil }
            let before = connection.received
            do {
                try connection.write(message)
                return try HTTPResponseRelay.relay(from: connection, to: client)
            } catch SocketStream.Failure.closed where reused && connection.received == before {
                upstream = nil
            }
        }
        return nil
    }

    private func refuse(_ refusal: WebDriverRefusal, to client: SocketStream, request: String) {
        log("hybrid-run webdriver: refused \(Self.printable(request)) (\(refusal.status) \(refusal.error)): \(refusal.message)")
        try? client.write(refusal.response)
    }

    /// A request line fit for one log line: control characters as `?`, at most 200 characters.
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(200).map { $0.properties.generalCategory == .control ? "?" : $0 }))
    }
}
