import Foundation

/// One binary stream a page opened with `hybrid.stream(name, options)` (see docs/streams.md),
/// handed to the native handler registered under `name` with ``ByteStreams/register(_:_:)``.
/// Bytes travel over the `hybrid-stream:` scheme (response bodies to the page, request bodies from
/// it), never as JSON or base64. The stream belongs to the calling document: it ends with
/// `BRIDGE_RESET` when that document's bridge session ends (navigation, reload, close).
public struct ByteStream: Sendable {
    public enum Mode: String, Sendable, CaseIterable {
        /// The page reads (a `ReadableStream`); native writes with ``write(_:)``.
        case read
        /// The page writes (a `WritableStream`); native reads ``incoming``.
        case write
        /// Both.
        case duplex
    }

    public let name: String
    public let mode: Mode
    /// The page's `options.data` (any JSON).
    public let data: JSONValue
    /// The call that opened it: the document's origin and bridge session.
    public let call: BridgeCall
    let toPage: ByteQueue
    let fromPage: ByteQueue

    /// What the page writes, in order, in the chunks it sent (at most 4 MiB each). Ends when the
    /// page closes its `WritableStream`; throws `CANCELLED` when it aborts it and `BRIDGE_RESET`
    /// when its document goes away.
    public var incoming: Chunks { Chunks(queue: fromPage) }

    /// Sends `data` to the page's `ReadableStream`. Suspends while the page has not taken what
    /// was sent before (at most ``ByteStreams/bufferedBytes`` wait here); throws `CANCELLED` once
    /// the page cancelled its stream, `BRIDGE_RESET` once its document went away.
    public func write(_ data: Data) async throws {
        try await toPage.push(data)
    }

    /// Ends the page's `ReadableStream` after what was written (done for you when the handler returns).
    public func finish() async { await toPage.finish() }

    /// Errors the page's `ReadableStream` after what was written, with `message` (done for you
    /// when the handler throws).
    public func fail(_ message: String) async {
        await toPage.fail(BridgeError(.handlerError, message))
    }

    /// An `AsyncSequence` of the chunks the page writes.
    public struct Chunks: AsyncSequence, Sendable {
        public typealias Element = Data
        let queue: ByteQueue

        public struct AsyncIterator: AsyncIteratorProtocol {
            let queue: ByteQueue
            public mutating func next() async throws -> Data? { try await queue.next() }
        }

        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(queue: queue) }
    }
}
