internal import CGLib
import Foundation
import Logging

/// Writes a chunk sequence into the write end of a socket pair, off the main loop. Writes are
/// non-blocking; when the socket is full the pump waits for the loop to report it writable
/// (`g_unix_fd_add_full`), so neither the main loop nor a cooperative thread ever blocks.
///
/// A body that fails (its producer throws, or ends short of the `length` promised) must reach the
/// page as a failed load, not as a short success, but a closed socket only says "end of body".
/// So the reader's end sends one byte to the writer's end at the start (``armReset(reader:)``):
/// a writer closed with that byte unread makes the reader's next read fail with `ECONNRESET`
/// (after the bytes already sent), which WebKit reports as a load error; a body that completes
/// reads the byte back first and closes cleanly.
package enum SchemeStreamPump {
    /// Queues the byte whose presence at close resets the connection (see above).
    package static func armReset(reader: Int32) {
        var byte: UInt8 = 0
        _ = send(reader, &byte, 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
    }

    package static func start(_ chunks: AsyncThrowingStream<Data, any Error>, into descriptor: Int32, length: UInt64? = nil, logger: Logger) {
        var size: Int32 = 1 << 20
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        Task.detached {
            defer { close(descriptor) }
            var sent: UInt64 = 0
            do {
                for try await chunk in chunks {
                    guard try await write(chunk, to: descriptor) else {
                        logger.info("scheme stream: the page stopped reading; the body's producer was cancelled")
                        return
                    }
                    sent += UInt64(chunk.count)
                }
            } catch is CancellationError {
                return
            } catch {
                logger.error("scheme stream: the body's producer failed after \(sent) bytes; the page sees a failed load: \(error)")
                return
            }
            if let length, sent != length {
                logger.error("scheme stream: the body ended after \(sent) of the \(length) bytes promised; the page sees a failed load")
                return
            }
            // Complete: take back the reset byte so the close is a clean end of body.
            var byte: UInt8 = 0
            _ = recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT))
        }
    }

    /// Writes all of `chunk`; false when the reader has gone away.
    private static func write(_ chunk: Data, to descriptor: Int32) async throws -> Bool {
        var written = 0
        while written < chunk.count {
            let count = chunk.withUnsafeBytes { send(descriptor, $0.baseAddress! + written, $0.count - written, Int32(MSG_NOSIGNAL)) }
            if count > 0 { written += count; continue }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK:
                try Task.checkCancellation()
                await waitUntilWritable(descriptor)
            default:
                return false  // EPIPE, ECONNRESET: WebKit dropped the stream
            }
        }
        return true
    }

    private static func waitUntilWritable(_ descriptor: Int32) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiter = Unmanaged.passRetained(WritableWaiter(continuation)).toOpaque()
            let condition = GIOCondition(rawValue: G_IO_OUT.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue)
            // Attaching a source to the default context is thread-safe; the callback only resumes.
            g_unix_fd_add_full(G_PRIORITY_DEFAULT, descriptor, condition, descriptorWritable, waiter, releaseWritableWaiter)
        }
    }
}

private final class WritableWaiter {
    let continuation: CheckedContinuation<Void, Never>
    init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }
}

private let descriptorWritable: GUnixFDSourceFunc = { _, _, data in
    Unmanaged<WritableWaiter>.fromOpaque(data!).takeUnretainedValue().continuation.resume()
    return hsg_false()  // G_SOURCE_REMOVE
}

private let releaseWritableWaiter: GDestroyNotify = { data in
    guard let data else { return }
    Unmanaged<WritableWaiter>.fromOpaque(data).release()
}
