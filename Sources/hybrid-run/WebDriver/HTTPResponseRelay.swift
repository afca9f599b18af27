import Foundation

/// Copies one HTTP/1.1 response from WebKitWebDriver to the client unchanged, reading only as much
/// of its framing (RFC 9112 §6.3) as it takes to know where it ends: interim `1xx` responses, then
/// a body of `Content-Length` bytes, chunked, or up to the end of the connection.
enum HTTPResponseRelay {
    /// The longest chunk-size or trailer line accepted.
    static let maximumLineLength = 8_192

    /// Relays one response; returns whether the client connection may carry another request.
    static func relay(from upstream: SocketStream, to client: SocketStream) throws -> Bool {
        while true {
            guard let bytes = try upstream.readHead(limit: HTTPMessageHead.maximumLength) else { throw SocketStream.Failure.closed }
            let head = try HTTPMessageHead(parsing: bytes)
            try client.write(bytes)
            guard let status = Int(head.parts[1]) else { throw SocketStream.Failure.closed }
            if (100..<200).contains(status), status != 101 { continue }
            let closes = head.values("Connection").contains { $0.lowercased().contains("close") } || head.parts[0] == "HTTP/1.0"
            if status == 204 || status == 304 { return !closes }
            if head.values("Transfer-Encoding").contains(where: { $0.lowercased().contains("chunked") }) {
                try relayChunks(from: upstream, to: client)
                return !closes
            }
            if let text = head.values("Content-Length").first {
                guard let length = Int(text), length >= 0 else { throw SocketStream.Failure.closed }
                try upstream.read(exactly: length) { try client.write($0) }
                return !closes
            }
            try upstream.readToEnd { try client.write($0) }
            return false
        }
    }

    private static func relayChunks(from upstream: SocketStream, to client: SocketStream) throws {
        while true {
            let line = try upstream.readLine(limit: maximumLineLength)
            try client.write(line)
            let sizeText = String(decoding: line.prefix { $0 != UInt8(ascii: ";") && $0 != 13 }, as: UTF8.self)
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else { throw SocketStream.Failure.closed }
            if size == 0 { break }
            try upstream.read(exactly: size + 2) { try client.write($0) }
        }
        // Trailer fields, then the empty line that ends the message.
        while true {
            let line = try upstream.readLine(limit: maximumLineLength)
            try client.write(line)
            if line.count == 2 { return }
        }
    }
}
