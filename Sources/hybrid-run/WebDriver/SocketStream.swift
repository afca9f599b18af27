import Glibc
import HybridShell

/// One blocking TCP connection with a read buffer: ``WebDriverProxy`` reads heads, bodies and
/// chunk lines from it and writes what it relays. Owns its descriptor.
final class SocketStream: @unchecked Sendable {  // one thread at a time: the accept loop hands it to its connection's thread
    enum Failure: Error, Equatable {
        /// The peer closed the connection (or a read timed out) before the bytes needed arrived.
        case closed
        /// A head or line longer than allowed.
        case tooLong
    }

    private var descriptor: Int32
    /// The bytes that have arrived on this connection so far.
    private(set) var received = 0
    private var buffer: [UInt8] = []
    private var start = 0

    init(descriptor: Int32) {
        self.descriptor = descriptor
        // A head and its body go out as separate writes; with Nagle's algorithm the second waits
        // for the peer's delayed ACK (measured: ~45 ms per WebDriver command instead of ~1).
        var on: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close() }

    func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    /// Connects to `127.0.0.1:port`; nil with `errno` when nothing listens there.
    static func connect(loopbackPort port: UInt16) -> SocketStream? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = LoopbackAddress.make(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let saved = errno
            Glibc.close(descriptor)
            errno = saved
            return nil
        }
        return SocketStream(descriptor: descriptor)
    }

    /// Stops reads that wait longer than `seconds` (they then fail as ``Failure/closed``).
    func setReadTimeout(seconds: Int) {
        var limit = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The bytes up to and including the first empty line (CRLF CRLF); nil when the peer closed
    /// the connection before sending any byte of it (an idle keep-alive connection ending).
    func readHead(limit: Int) throws(Failure) -> [UInt8]? {
        var searched = start
        while true {
            if let end = find([13, 10, 13, 10], from: max(start, searched - 3)) { return take(end + 4 - start) }
            searched = buffer.count
            guard buffer.count - start <= limit else { throw .tooLong }
            guard fill() else {
                if buffer.count == start { return nil }
                throw .closed
            }
        }
    }

    /// One line including its CRLF (a chunk-size line or a trailer field).
    func readLine(limit: Int) throws(Failure) -> [UInt8] {
        var searched = start
        while true {
            if let end = find([13, 10], from: max(start, searched - 1)) { return take(end + 2 - start) }
            searched = buffer.count
            guard buffer.count - start <= limit else { throw .tooLong }
            guard fill() else { throw .closed }
        }
    }

    /// Exactly `count` bytes, handed to `sink` as they arrive (never the whole of a large body at once).
    func read(exactly count: Int, into sink: ([UInt8]) throws -> Void) throws {
        var left = count
        while left > 0 {
            if buffer.count == start { guard fill() else { throw Failure.closed } }
            let piece = take(min(left, buffer.count - start))
            left -= piece.count
            try sink(piece)
        }
    }

    /// Everything until the peer closes, handed to `sink` as it arrives.
    func readToEnd(into sink: ([UInt8]) throws -> Void) throws {
        while true {
            if buffer.count > start { try sink(take(buffer.count - start)) }
            guard fill() else { return }
        }
    }

    /// Writes all of `bytes`; ``Failure/closed`` when the peer has gone.
    func write(_ bytes: [UInt8]) throws(Failure) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + written, $0.count - written, Int32(MSG_NOSIGNAL)) }
            if count > 0 {
                written += count
            } else if count < 0, errno == EINTR {
                continue
            } else {
                throw .closed
            }
        }
    }

    /// Reads what is there into the buffer; false at the end of the input.
    private func fill() -> Bool {
        if start > 0, start == buffer.count { buffer.removeAll(keepingCapacity: true); start = 0 }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += count
                buffer += chunk[..<count]
                return true
            }
            if count == 0 { return false }
            if errno == EINTR { continue }
            return false  // ECONNRESET, a read timeout (EAGAIN) and the like: the connection is over
        }
    }

    private func find(_ pattern: [UInt8], from: Int) -> Int? {
        guard buffer.count - from >= pattern.count else { return nil }
        var index = from
        while index <= buffer.count - pattern.count {
            if buffer[index] == pattern[0], buffer[index..<index + pattern.count].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }

    private func take(_ count: Int) -> [UInt8] {
        let piece = Array(buffer[start..<start + count])
        start += count
        if start == buffer.count { buffer.removeAll(keepingCapacity: true); start = 0 }
        return piece
    }
}

/// `sockaddr_in` for 127.0.0.1 (or another loopback address) and a port.
enum LoopbackAddress {
    static func make(port: UInt16, host: String = "127.0.0.1") -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        return address
    }
}
