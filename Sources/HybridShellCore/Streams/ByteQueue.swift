import Foundation

/// A bounded first-in first-out queue of byte chunks between one producer and one consumer: the
/// producer waits while `capacity` bytes are queued (back-pressure: a writer faster than its
/// reader holds at most `capacity` plus one chunk), the consumer waits for a chunk or the end.
/// Either side can end it: the producer finishes or fails it (the consumer sees that after the
/// queued chunks), the consumer cancels it (the producer's next push throws, queued chunks are dropped).
actor ByteQueue {
    let capacity: Int
    private var chunks: [Data] = []
    private var head = 0
    private var buffered = 0
    private var ended = false
    private var failure: (any Error)?
    private var cancellation: (any Error)?
    private var waitingConsumer: CheckedContinuation<Void, Never>?
    private var waitingProducer: CheckedContinuation<Void, Never>?

    init(capacity: Int) { self.capacity = capacity }

    /// Queues `data`, waiting while the queue is full; throws the cancellation once the consumer
    /// has gone, or when the producer already ended the queue.
    func push(_ data: Data) async throws {
        while true {
            if let cancellation { throw cancellation }
            if ended || failure != nil { throw BridgeError(.invalidMessage, "the stream was already closed") }
            if buffered < capacity { break }
            await withCheckedContinuation { waitingProducer = $0 }
        }
        guard !data.isEmpty else { return }
        chunks.append(data)
        buffered += data.count
        wakeConsumer()
    }

    /// The next chunk; nil at the end; throws the producer's failure or the cancellation.
    func next() async throws -> Data? {
        while head == chunks.count {
            if let cancellation { throw cancellation }
            if let failure { throw failure }
            if ended { return nil }
            await withCheckedContinuation { waitingConsumer = $0 }
        }
        let chunk = chunks[head]
        head += 1
        if head == chunks.count || head > 64 {
            chunks.removeFirst(head)
            head = 0
        }
        buffered -= chunk.count
        wakeProducer()
        return chunk
    }

    /// Whether everything was consumed and the producer finished (a reader gets no more bytes).
    var isDrained: Bool { head == chunks.count && ended }
    /// The producer's failure or the cancellation, once the queued chunks are gone.
    var problem: (any Error)? { head == chunks.count ? (cancellation ?? failure) : cancellation }

    func finish() {
        ended = true
        wakeConsumer()
    }

    func fail(_ error: any Error) {
        guard !ended, failure == nil else { return }
        failure = error
        wakeConsumer()
    }

    func cancel(_ error: any Error) {
        guard cancellation == nil else { return }
        cancellation = error
        chunks = []
        head = 0
        buffered = 0
        wakeProducer()
        wakeConsumer()
    }

    private func wakeConsumer() {
        waitingConsumer?.resume()
        waitingConsumer = nil
    }

    private func wakeProducer() {
        waitingProducer?.resume()
        waitingProducer = nil
    }
}
