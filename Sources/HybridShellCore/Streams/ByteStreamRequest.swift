import Foundation

/// What one `hybrid-stream://<token>/…` request does (``ByteStreams``): reads a segment of what
/// native writes, hands one chunk of what the page writes over, or ends a side.
enum ByteStreamRequest {
    static func answer(_ request: SchemeRequest, entry: ByteStreams.Open, remove: @escaping @Sendable () -> Void) async -> SchemeResponse {
        let stream = entry.stream
        switch (request.method, request.path) {
        case ("GET", "/read"):
            guard stream.mode != .write else { return .error(405, "this stream is write-only") }
            if let problem = await stream.toPage.problem { return failure(problem) }
            if await stream.toPage.isDrained {
                if entry.finished(reading: true) { remove() }
                return SchemeResponse(status: 204)
            }
            return segment(stream.toPage, headers: [("Content-Type", "application/octet-stream"), ("Cache-Control", "no-store")])
        case ("POST", "/write"):
            guard stream.mode != .read else { return .error(405, "this stream is read-only") }
            guard let number = sequence(request.url) else { return .error(400, "a write needs ?seq=N") }
            guard await entry.order.enter(number) else { return .error(409, "write \(number) is out of order") }
            do {
                try await stream.fromPage.push(request.body)
            } catch {
                await entry.order.leave()
                return failure(error)
            }
            await entry.order.leave()
            return SchemeResponse(status: 204)
        case ("POST", "/close"):
            await stream.fromPage.finish()
            if entry.finished(reading: false) { remove() }
            return SchemeResponse(status: 204)
        case ("POST", "/abort"):
            await stream.fromPage.fail(BridgeError(.cancelled, "the page aborted its WritableStream"))
            return SchemeResponse(status: 204)
        case ("POST", "/cancel"):
            await stream.toPage.cancel(BridgeError(.cancelled, "the page cancelled its ReadableStream"))
            if stream.mode == .read { remove() }
            return SchemeResponse(status: 204)
        default:
            return .error(404, "no such stream request: \(request.method) \(request.path)")
        }
    }

    /// At most ``ByteStreams/segmentBytes`` of the queue as a streamed body, pulled as the page reads.
    static func segment(_ queue: ByteQueue, headers: [(name: String, value: String)]) -> SchemeResponse {
        let sent = Counter()
        let chunks = AsyncThrowingStream<Data, any Error>(unfolding: {
            guard sent.value < ByteStreams.segmentBytes, let chunk = try await queue.next() else { return nil }
            sent.value += chunk.count
            return chunk
        })
        return SchemeResponse(status: 200, headers: headers, body: .stream(chunks, length: nil))
    }

    static func failure(_ error: any Error) -> SchemeResponse {
        let bridgeError = error as? BridgeError ?? BridgeError(.handlerError, "\(error)")
        // The page's side reads the code from the body (a custom header would need a CORS exposure).
        let body = JSONValue.object(["code": .string(bridgeError.code.rawValue), "message": .string(bridgeError.message)]).jsonText
        return SchemeResponse(status: bridgeError.code == .bridgeReset ? 410 : 500, headers: [("Content-Type", "application/json")],
                              body: .bytes(Data(body.utf8)))
    }

    static func sequence(_ url: String) -> Int? {
        guard let query = url.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        for pair in query.split(separator: "&") where pair.hasPrefix("seq=") { return Int(pair.dropFirst(4)) }
        return nil
    }
}

/// Bytes a segment has sent; only its one pump task touches it.
private final class Counter: @unchecked Sendable {
    var value = 0
}
