import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The network side of updates, a protocol so tests and apps can supply their own.
public protocol PackageDownloader: Sendable {
    /// Fetches a small document whole, refusing more than `limit` bytes.
    func fetch(_ url: URL, limit: Int) async throws(PackageError) -> Data
    /// Downloads `url` into `file`, resuming after the bytes `file` already has, and refusing the
    /// download the moment it would exceed `size` bytes in all (the signed size).
    func download(_ url: URL, to file: URL, size: Int64) async throws(PackageError)
    /// Posts a failure report; errors are ignored (a report must never fail an update).
    func post(_ url: URL, json: Data) async
}

/// ``PackageDownloader`` over URLSession (FoundationNetworking on Linux), streaming to disk.
public struct URLSessionPackageDownloader: PackageDownloader {
    public let timeout: TimeInterval

    public init(timeout: TimeInterval = 30) { self.timeout = timeout }

    public func fetch(_ url: URL, limit: Int) async throws(PackageError) -> Data {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hybridshell-fetch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try await Transfer(url: url, file: file, limit: Int64(limit), exact: false, timeout: timeout).run()
        guard let data = try? Data(contentsOf: file) else { throw .io(path: file.path, reason: "cannot be read back") }
        return data
    }

    public func download(_ url: URL, to file: URL, size: Int64) async throws(PackageError) {
        try await Transfer(url: url, file: file, limit: size, exact: true, timeout: timeout).run()
    }

    /// Downloads a file whose size nobody signed (`install URL`), refusing more than `limit` bytes;
    /// the package's own signature is what is checked next.
    public func download(_ url: URL, to file: URL, limit: Int64) async throws(PackageError) {
        try? FileManager.default.removeItem(at: file)
        try await Transfer(url: url, file: file, limit: limit, exact: false, timeout: timeout).run()
    }

    public func post(_ url: URL, json: Data) async {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = json
        let session = URLSession(configuration: .ephemeral)
        _ = try? await session.data(for: request)
        session.finishTasksAndInvalidate()
    }
}

/// One streaming GET into a file, with resume and a byte cap. Callbacks arrive on the session's
/// serial delegate queue; the lock covers the hand-over to the waiting task.
final class Transfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let url: URL
    let file: URL
    let limit: Int64
    /// Whether the file must end up exactly `limit` bytes long.
    let exact: Bool
    let timeout: TimeInterval
    private var handle: FileHandle?
    private var written: Int64 = 0
    private var resumedFrom: Int64 = 0
    private var failure: PackageError?
    private var continuation: CheckedContinuation<Void, Never>?

    init(url: URL, file: URL, limit: Int64, exact: Bool, timeout: TimeInterval) {
        self.url = url
        self.file = file
        self.limit = limit
        self.exact = exact
        self.timeout = timeout
    }

    func run() async throws(PackageError) {
        if !FileManager.default.fileExists(atPath: file.path) {
            guard FileManager.default.createFile(atPath: file.path, contents: nil) else { throw .io(path: file.path, reason: "cannot be created") }
        }
        guard let handle = try? FileHandle(forWritingTo: file) else { throw .io(path: file.path, reason: "cannot be opened") }
        self.handle = handle
        defer { try? handle.close() }
        let existing = Int64((try? handle.seekToEnd()) ?? 0)
        if existing > limit || (exact && existing == limit) {
            // A leftover at least as long as the whole download cannot be a prefix of it.
            try? handle.truncate(atOffset: 0)
        } else {
            resumedFrom = existing
        }
        written = resumedFrom
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        if resumedFrom > 0 { request.setValue("bytes=\(resumedFrom)-", forHTTPHeaderField: "Range") }
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: queue)
        await withCheckedContinuation { continuation in
            self.continuation = continuation
            session.dataTask(with: request).resume()
        }
        session.finishTasksAndInvalidate()
        if let failure { throw failure }
        if exact && written != limit {
            throw .download(url: url.absoluteString, reason: "ended after \(written) of \(limit) bytes")
        }
    }

    private func fail(_ reason: String) {
        if failure == nil { failure = .download(url: url.absoluteString, reason: reason) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let http = response as? HTTPURLResponse else {
            fail("not an HTTP response")
            return completionHandler(.cancel)
        }
        switch http.statusCode {
        case 206 where resumedFrom > 0:
            let range = http.value(forHTTPHeaderField: "Content-Range") ?? ""
            guard range.hasPrefix("bytes \(resumedFrom)-") else {
                fail("the server resumed at the wrong offset (\(range))")
                return completionHandler(.cancel)
            }
        case 200:
            // The server ignored the range: start over.
            try? handle?.truncate(atOffset: 0)
            written = 0
        default:
            fail("HTTP status \(http.statusCode)")
            return completionHandler(.cancel)
        }
        if http.expectedContentLength > 0, written + http.expectedContentLength > limit {
            fail("the server announces \(written + http.expectedContentLength) bytes, more than the signed \(limit)")
            return completionHandler(.cancel)
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard failure == nil else { return }
        guard written + Int64(data.count) <= limit else {
            fail("longer than the signed size of \(limit) bytes")
            dataTask.cancel()
            return
        }
        do {
            try handle?.write(contentsOf: data)
            written += Int64(data.count)
        } catch {
            failure = (error as NSError).code == Int(ENOSPC) ? .diskFull("writing \(file.path)") : .io(path: file.path, reason: "\(error)")
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error { fail("connection ended after \(written) bytes: \(error.localizedDescription)") }
        continuation?.resume()
        continuation = nil
    }
}
