import Foundation
import Glibc
@testable import hybrid_run
import Testing

/// `hybrid-run webdriver` relays WebKitWebDriver's responses unchanged and knows where each ends:
/// over socket pairs, without WebKitWebDriver.
@Suite("hybrid-run webdriver, response relay")
struct HTTPResponseRelayTests {
    /// Writes `response` (then closes, when asked) into one pair, relays it into another, and
    /// returns what the client side received and whether the relay kept the connection.
    static func relay(_ response: String, closeAfter: Bool = false) throws -> (bytes: String, keepAlive: Bool) {
        var upstream: [Int32] = [0, 0], client: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &upstream) == 0,
              socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &client) == 0 else { throw SocketStream.Failure.closed }
        let server = SocketStream(descriptor: upstream[1])
        try server.write(Array(response.utf8))
        if closeAfter { server.close() }
        let keepAlive = try HTTPResponseRelay.relay(from: SocketStream(descriptor: upstream[0]), to: SocketStream(descriptor: client[1]))
        let reader = SocketStream(descriptor: client[0])
        var received: [UInt8] = []
        try reader.readToEnd { received += $0 }
        return (String(decoding: received, as: UTF8.self), keepAlive)
    }

    @Test func aContentLengthResponseIsRelayedExactlyAndNotBeyond() throws {
        let response = "HTTP/1.1 200 OK\r\nContent-Length: 11\r\nContent-Type: application/json\r\n\r\n{\"value\":1}"
        let relayed = try Self.relay(response + "HTTP/1.1 200 OK\r\n")
        #expect(relayed.bytes == response)
        #expect(relayed.keepAlive)
    }

    @Test func chunksAndTrailersAreRelayedUnchanged() throws {
        let response = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: 1\r\n\r\n"
        let relayed = try Self.relay(response + "junk")
        #expect(relayed.bytes == response)
        #expect(relayed.keepAlive)
    }

    @Test func interimResponsesPrecedeTheFinalOne() throws {
        let response = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n"
        let relayed = try Self.relay(response)
        #expect(relayed.bytes == response)
        #expect(!relayed.keepAlive)
    }

    @Test func aResponseWithoutLengthEndsWithTheConnection() throws {
        let response = "HTTP/1.1 200 OK\r\n\r\nuntil the end"
        let relayed = try Self.relay(response, closeAfter: true)
        #expect(relayed.bytes == response)
        #expect(!relayed.keepAlive)
    }

    @Test func aTruncatedBodyIsAnError() {
        #expect(throws: SocketStream.Failure.closed) {
            try Self.relay("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort", closeAfter: true)
        }
    }
}
