import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One `http.request` on the wire: the body streams into a private temporary file as it arrives,
/// at most `maxBytes` of it (counted after content decoding: a small gzip that inflates to a huge
/// body is stopped as soon as it passes the cap), and the whole request — connecting, waiting,
/// every byte of the body — must end within `timeout`. Either limit cancels the transfer at once
/// and deletes the partial file. Redirects are not followed (the 3xx is the answer).
///
/// Why not `URLSession.download(for:)`: its timeout is an idle timeout (a server that sends a byte
/// a second never times out; swift-corelibs-foundation even waited 60 s for a stalled server when
/// 2 s were asked), and it writes the whole body to disk before anyone can look at its size.
final class HTTPTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// How a transfer ended.
    enum Outcome {
        case finished(file: URL, response: HTTPURLResponse)
        case timedOut
        case tooLarge
        case failed(Error)
    }

    private struct State {
        var file: FileHandle?
        var received = 0
        var response: URLResponse?
        /// Set once: by the deadline, the cap, or the end of the task.
        var stopped: Outcome?
        var continuation: CheckedContinuation<Outcome, Never>?
    }

    private let path: URL
    private let maxBytes: Int
    private let state = Mutex(State())

    private init(maxBytes: Int, directory: String) {
        self.maxBytes = maxBytes
        path = URL(fileURLWithPath: directory).appendingPathComponent("hybridshell-http-\(FileShares.makeToken())")
    }

    /// Makes `request`; a finished transfer's file is the caller's to remove or adopt. Every other
    /// outcome has already removed its partial file.
    /// - Parameter directory: where the body's file is made (the system's temporary folder).
    static func run(_ request: URLRequest, timeout: Duration, maxBytes: Int, directory: String = NSTemporaryDirectory()) async -> Outcome {
        let transfer = HTTPTransfer(maxBytes: maxBytes, directory: directory)
        let configuration = URLSessionConfiguration.ephemeral
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: transfer, delegateQueue: queue)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request)
        // Made before anything arrives (an answer without a body has it empty), so that a late
        // callback never makes it again after a stop deleted it. Owner-only: the body may be
        // private to the page that asked for it.
        guard FileManager.default.createFile(atPath: transfer.path.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            return .failed(CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: transfer.path.path]))
        }
        return await withCheckedContinuation { continuation in
            transfer.state.withLock { $0.continuation = continuation }
            // The deadline of the whole request, not of each read.
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak task] in
                if transfer.stop(.timedOut) { task?.cancel() }
            }
            task.resume()
        }
    }

    /// Ends the transfer with `outcome` unless it already ended; true when this call ended it.
    private func stop(_ outcome: Outcome) -> Bool {
        let continuation: CheckedContinuation<Outcome, Never>? = state.withLock { state in
            guard state.stopped == nil else { return nil }
            state.stopped = outcome
            try? state.file?.close()
            state.file = nil
            defer { state.continuation = nil }
            return state.continuation
        }
        guard let continuation else { return false }
        if case .finished = outcome {} else { try? FileManager.default.removeItem(at: path) }
        continuation.resume(returning: outcome)
        return true
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let opened: Bool = state.withLock { state in
            guard state.stopped == nil else { return false }
            state.response = response
            guard let file = try? FileHandle(forWritingTo: path) else { return false }
            state.file = file
            return true
        }
        if !opened {
            _ = stop(.failed(CocoaError(.fileWriteUnknown)))
        }
        completionHandler(opened ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let problem: Outcome? = state.withLock { state in
            guard state.stopped == nil, let file = state.file else { return nil }
            state.received += data.count
            guard state.received <= maxBytes else { return .tooLarge }
            do { try file.write(contentsOf: data) } catch { return .failed(error) }
            return nil
        }
        if let problem, stop(problem) { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let response = state.withLock { $0.response }
        if let error {
            _ = stop((error as? URLError)?.code == .timedOut ? .timedOut : .failed(error))
        } else if let http = response as? HTTPURLResponse {
            _ = stop(.finished(file: path, response: http))
        } else {
            _ = stop(.failed(URLError(.badServerResponse)))
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}
