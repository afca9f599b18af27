/// The update manager's decisions, kept pure (``PackageStore/update(from:downloader:report:progress:)``
/// fetches and installs; `PackageUpdates` is the adapter): whether an asked check starts or joins the
/// running one, which events a check's progress and results make, and what each page is told given
/// the version its document came from.
public struct PackageUpdateTracker: Sendable, Equatable {
    /// The version of an app that is installed and active (what a new document gets).
    public struct Installed: Sendable, Equatable {
        public var version: String
        public var sequence: Int64
        public init(version: String, sequence: Int64) {
            self.version = version
            self.sequence = sequence
        }
    }

    public private(set) var isChecking = false
    /// Apps the last verified index offers a newer version of that is not installed (yet).
    public private(set) var offered: Set<String> = []
    public private(set) var finishedChecks = 0
    /// The last failure per app; the key "" is the index's.
    public private(set) var failures: [String: String] = [:]
    /// Whether the running check's `checked` event was made (from the store's event, or at the end).
    private var reportedCheck = false

    public init() {}

    /// A check is asked for (at start, by the interval, by a page): true when it starts, false when
    /// it joins the running one (checks never overlap: one index fetch answers all who asked).
    public mutating func begin() -> Bool {
        guard !isChecking else { return false }
        isChecking = true
        reportedCheck = false
        return true
    }

    /// The running check verified the index: `available` apps have a newer version than installed.
    /// Reported before the downloads start, so pages learn of an update early.
    public mutating func indexVerified(available: [String]) -> [PackageUpdateEvent] {
        guard isChecking, !reportedCheck else { return [] }
        reportedCheck = true
        offered = Set(available)
        failures[""] = nil
        return [.checked(available: available.sorted())]
    }

    /// The running check ended: with each app's result, or with the index unusable (unreachable,
    /// signed by an unknown key, expired…).
    public mutating func finished(_ outcome: Result<[PackageUpdateResult], PackageError>) -> [PackageUpdateEvent] {
        guard isChecking else { return [] }
        defer {
            isChecking = false
            finishedChecks += 1
        }
        switch outcome {
        case .failure(let error):
            let reason = "the update index: \(error.description)"
            failures[""] = reason
            return [.failed(appID: nil, reason: reason)]
        case .success(let results):
            var events = indexVerified(available: results.filter { if case .upToDate = $0.outcome { false } else { true } }.map(\.appID))
            failures[""] = nil
            for result in results {
                switch result.outcome {
                case .upToDate:
                    offered.remove(result.appID)
                    failures[result.appID] = nil
                case .installed(let installed, _):
                    offered.remove(result.appID)
                    failures[result.appID] = nil
                    events.append(.ready(appID: installed.appID, version: installed.version, sequence: installed.sequence))
                case .failed(let error):
                    // Still offered: the next check tries again (a cut download resumes).
                    failures[result.appID] = error.description
                    events.append(.failed(appID: result.appID, reason: error.description))
                }
            }
            return events
        }
    }

    /// What a page of `appID` whose document came from `pageSequence` is told.
    public func status(appID: String, pageSequence: Int64, installed: Installed?) -> PackageUpdateStatus {
        let ready = installed.map { $0.sequence > pageSequence } ?? false
        return PackageUpdateStatus(hasUpdate: ready || offered.contains(appID), ready: ready, checking: isChecking,
                                   checked: finishedChecks > 0, version: ready ? installed?.version : nil,
                                   sequence: ready ? installed?.sequence : nil, failure: failures[appID] ?? failures[""])
    }

    /// Whether `event` concerns a page of `appID` on `pageSequence` (pages already on the ready
    /// version are not told it again; a failure of the index concerns every app).
    public static func concerns(_ event: PackageUpdateEvent, appID: String, pageSequence: Int64) -> Bool {
        switch event {
        case .checked: true
        case .ready(let app, _, let sequence): app == appID && sequence > pageSequence
        case .failed(let app, _): app == nil || app == appID
        case .applied: false
        }
    }
}
