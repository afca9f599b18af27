import Foundation

/// Several interceptors behind one scheme, like an iOS app's `NSURLProtocol` registry: interceptors are tried
/// in priority order and the first whose `canHandle` says yes answers; each belongs to a group
/// that is only active while its reference count is above zero (``retain(_:)``/``release(_:)``),
/// so nested users cannot switch interception off under each other; the requests of a page are
/// cancelled when the page goes away (``pageWentAway(_:)``).
///
/// Register it like any handler: `SchemeRegistration(scheme: "app", handler: manager)`.
public final class InterceptorManager: URLSchemeHandler, @unchecked Sendable {
    public struct Entry: Sendable {
        public let interceptor: any URLInterceptor
        public let priority: Int
        public let group: String
        let order: Int
    }

    private let lock = NSLock()
    private var entries: [Entry] = []
    private var counts: [String: Int] = [:]
    private var running: [UInt: [Int: Task<SchemeResponse, any Error>]] = [:]
    private var nextID = 0
    /// Answers what no active interceptor handles; nil: 404.
    public let fallback: (any URLSchemeHandler)?

    public init(fallback: (any URLSchemeHandler)? = nil) {
        self.fallback = fallback
    }

    /// Adds an interceptor; a higher `priority` is asked first, equal priorities in the order added.
    public func add(_ interceptor: any URLInterceptor, priority: Int = 0, group: String = "default") {
        lock.withLock {
            nextID += 1
            entries.append(Entry(interceptor: interceptor, priority: priority, group: group, order: nextID))
            entries.sort { $0.priority != $1.priority ? $0.priority > $1.priority : $0.order < $1.order }
        }
    }

    /// Starts interception for `group` (or keeps it on). Returns the new count.
    @discardableResult
    public func retain(_ group: String = "default") -> Int {
        lock.withLock {
            counts[group, default: 0] += 1
            return counts[group]!
        }
    }

    /// Undoes one ``retain(_:)``; interception of `group` stops when the count reaches zero.
    /// A release without a matching retain is refused (returns nil) rather than going negative.
    @discardableResult
    public func release(_ group: String = "default") -> Int? {
        lock.withLock {
            guard let count = counts[group], count > 0 else { return nil }
            counts[group] = count == 1 ? nil : count - 1
            return count - 1
        }
    }

    public func isActive(_ group: String = "default") -> Bool {
        lock.withLock { (counts[group] ?? 0) > 0 }
    }

    /// The interceptor that would answer `request`, if any.
    public func interceptor(for request: SchemeRequest) -> (any URLInterceptor)? {
        let active = lock.withLock { entries.filter { (counts[$0.group] ?? 0) > 0 } }
        return active.first { $0.interceptor.canHandle(request) }?.interceptor
    }

    /// Cancels every request of `page` still being answered (`NSURLProtocol`'s `stopLoading`).
    public func pageWentAway(_ page: SchemePage) {
        let tasks = lock.withLock { running.removeValue(forKey: page.id) ?? [:] }
        for task in tasks.values { task.cancel() }
    }

    /// How many requests are being answered now (for tests and diagnostics).
    public var runningCount: Int { lock.withLock { running.values.reduce(0) { $0 + $1.count } } }

    public func response(for request: SchemeRequest) async throws -> SchemeResponse {
        guard let interceptor = interceptor(for: request) else {
            if let fallback { return try await fallback.response(for: request) }
            return .error(404, "no interceptor handles \(request.url)")
        }
        let work = Task { try await interceptor.response(for: request) }
        let pageID = request.page?.id ?? 0
        let id = lock.withLock { () -> Int in
            nextID += 1
            running[pageID, default: [:]][nextID] = work
            return nextID
        }
        defer {
            lock.withLock {
                running[pageID]?[id] = nil
                if running[pageID]?.isEmpty == true { running[pageID] = nil }
            }
        }
        return try await withTaskCancellationHandler {
            try await work.value
        } onCancel: {
            work.cancel()
        }
    }
}
