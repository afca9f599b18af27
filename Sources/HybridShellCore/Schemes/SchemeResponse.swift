import Foundation

/// The answer to a ``SchemeRequest``: status, headers and a body that is streamed to the page
/// (`WebKitURISchemeResponse` over a `GInputStream`).
public struct SchemeResponse: Sendable {
    public enum Body: Sendable {
        /// Bytes in memory.
        case bytes(Data)
        /// A file (or the byte range `offset..<offset+length` of it), read in chunks off the main
        /// loop as the page takes them — never loaded into memory. A file that ends before
        /// `length` (truncated while served) fails the page's load.
        case file(path: String, offset: UInt64 = 0, length: UInt64)
        /// Chunks produced by Swift, written into a socket pair WebKit reads from; `length`, when
        /// known, becomes `Content-Length`. Cancelled (``AsyncThrowingStream`` termination) when
        /// the page stops reading.
        case stream(AsyncThrowingStream<Data, any Error>, length: UInt64?)
    }

    public var status: Int
    /// Sent as given. `Content-Type` belongs here (WebKit's own content-type field does not reach
    /// JavaScript as a header).
    public var headers: [(name: String, value: String)]
    public var body: Body

    public init(status: Int = 200, headers: [(name: String, value: String)] = [], body: Body = .bytes(Data())) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with a body, its `Content-Type` and `Content-Length`.
    public static func ok(_ data: Data, contentType: String) -> SchemeResponse {
        SchemeResponse(status: 200, headers: [("Content-Type", contentType)], body: .bytes(data))
    }

    /// A short plain-text answer such as 404 or 500.
    public static func error(_ status: Int, _ message: String) -> SchemeResponse {
        SchemeResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")],
                       body: .bytes(Data((message + "\n").utf8)))
    }

    /// A chunk sequence of any kind as a streamed body. Pull-based: the next chunk is asked for
    /// only when the page has taken the previous one, and the sequence's iterator is released as
    /// soon as the page stops reading.
    public static func streaming<S: AsyncSequence & Sendable>(
        _ chunks: S, length: UInt64? = nil, status: Int = 200, headers: [(name: String, value: String)] = []
    ) -> SchemeResponse where S.Element == Data {
        let iterator = ChunkIterator(chunks.makeAsyncIterator())
        let stream = AsyncThrowingStream<Data, any Error>(unfolding: { try await iterator.next() })
        return SchemeResponse(status: status, headers: headers, body: .stream(stream, length: length))
    }

    /// The first value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The body's length when known in advance.
    public var contentLength: UInt64? {
        switch body {
        case .bytes(let data): UInt64(data.count)
        case .file(_, _, let length): length
        case .stream(_, let length): length
        }
    }
}

/// Carries a sequence's iterator into the pull closure; only the one pump task ever calls it.
private final class ChunkIterator<Iterator: AsyncIteratorProtocol>: @unchecked Sendable where Iterator.Element == Data {
    private var iterator: Iterator
    init(_ iterator: Iterator) { self.iterator = iterator }
    func next() async throws -> Data? { try await iterator.next() }
}
