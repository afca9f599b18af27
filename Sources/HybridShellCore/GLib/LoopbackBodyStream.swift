internal import CGLib
import Foundation

/// One response body written chunk by chunk into a `SoupServerMessage`: a chunk is read off the
/// main loop (a detached task pulls the sequence, e.g. ``FileChunks`` with `pread`), appended on
/// the loop, and the next is asked for only when libsoup reports the previous one written
/// (`wrote-chunk`), so a slow client never makes the file pile up in memory. libsoup pauses the
/// message by itself when it runs out of body; each appended chunk unpauses it.
///
/// Ends at `finished` (written, or the client went away: logged with how far it got) or when the
/// server stops; then the reading task is cancelled, the signals are disconnected (releasing this
/// object) and the message reference is dropped.
@EngineActor
final class LoopbackBodyStream {
    private let message: OpaquePointer
    private let source: ChunkSource
    private let length: UInt64?
    private let description: String
    private weak var server: LoopbackHTTPServer?
    private var connections: [SignalConnection] = []
    private var task: Task<Void, Never>?
    private var pulling = false
    private var ended = false
    private var written = false
    private var sent: UInt64 = 0

    /// The request's path, raw: the server ends the streams of a share that has ended by it.
    let path: String

    init(message: OpaquePointer, chunks: AsyncThrowingStream<Data, any Error>, length: UInt64?, path: String, description: String,
         server: LoopbackHTTPServer) {
        self.message = message
        self.path = path
        self.source = ChunkSource(chunks)
        self.length = length
        self.description = description
        self.server = server
        g_object_ref(gpointer(message))
    }

    func begin() {
        let instance = gpointer(message)
        connections = [
            connectSignal(instance, "wrote-chunk", unsafeBitCast(voidSignalTrampoline, to: GCallback.self), { [self] in pull() } as VoidSignal),
            connectSignal(instance, "wrote-body", unsafeBitCast(voidSignalTrampoline, to: GCallback.self), { [self] in written = true } as VoidSignal),
            connectSignal(instance, "finished", unsafeBitCast(voidSignalTrampoline, to: GCallback.self), { [self] in
                end(reason: written ? nil : "the client went away")
            } as VoidSignal),
        ]
        pull()
    }

    /// Asks the sequence for its next chunk, off the loop.
    private func pull() {
        guard !ended, !pulling else { return }
        pulling = true
        let source = source
        task = Task.detached { [weak self] in
            let result: Result<Data?, any Error>
            do { result = .success(try await source.next()) } catch { result = .failure(error) }
            await self?.deliver(result)
        }
    }

    private func deliver(_ result: Result<Data?, any Error>) {
        pulling = false
        guard !ended else { return }
        let body = soup_server_message_get_response_body(message)
        switch result {
        case .success(let chunk?):
            sent += UInt64(chunk.count)
            chunk.withUnsafeBytes { soup_message_body_append(body, SOUP_MEMORY_COPY, $0.baseAddress, gsize($0.count)) }
        case .success(nil):
            soup_message_body_complete(body)
        case .failure(let error):
            // The status is sent already: the body ends short of its Content-Length, which the
            // client sees as a network error.
            server?.logger.error("media listener: reading the body of \(description) failed after \(sent) bytes: \(error)")
            soup_message_body_complete(body)
        }
        soup_server_message_unpause(message)
    }

    /// Cuts the connection mid-body (its share ended): libsoup's pending write fails and it
    /// finishes the message; the client sees a truncated body.
    func abort(reason: String) {
        guard !ended else { return }
        if let socket = soup_server_message_get_socket(message) { g_socket_shutdown(socket, 1, 1, nil) }
        end(reason: reason)
    }

    /// Stops reading and lets go of the message; `reason` (nil after a complete body) is logged.
    func end(reason: String?) {
        guard !ended else { return }
        ended = true
        task?.cancel()
        task = nil
        if let reason {
            let total = length.map { " of \($0)" } ?? ""
            server?.logger.notice("media listener: \(description) ended after \(sent)\(total) bytes: \(reason)")
        }
        server?.streams[ObjectIdentifier(self)] = nil
        for connection in connections { connection.disconnect() }
        connections = []
        g_object_unref(gpointer(message))
    }
}

/// The sequence's iterator, pulled by one task at a time.
private final class ChunkSource: @unchecked Sendable {
    private var iterator: AsyncThrowingStream<Data, any Error>.AsyncIterator
    init(_ chunks: AsyncThrowingStream<Data, any Error>) { iterator = chunks.makeAsyncIterator() }
    func next() async throws -> Data? { try await iterator.next() }
}
