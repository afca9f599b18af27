import Foundation

/// What an update did for one app of the index.
public enum PackageUpdateOutcome: Sendable, Equatable {
    case upToDate(sequence: Int64)
    case installed(InstalledPackage, incremental: Bool)
    case failed(PackageError)
}

public struct PackageUpdateResult: Sendable, Equatable {
    public let appID: String
    public let outcome: PackageUpdateOutcome
}

/// What ``PackageStore/installPreset(file:appVersion:)`` did.
public enum PresetOutcome: Sendable, Equatable {
    /// This app version's preset was already considered.
    case alreadyApplied
    /// What is installed is as new or newer.
    case notNewer(sequence: Int64)
    case installed(InstalledPackage)
}

/// A failure report POSTed to the report URL (the update server's failure endpoint).
struct PackageFailureReport: Codable {
    var appID: String?
    var sequence: Int64?
    var reason: String
    var time: String
}

extension PackageStore {
    /// Fetches and verifies the signed index at `base` (`index.json` + `index.json.sig`), then
    /// installs each enabled app's newer version, highest priority first: the incremental package
    /// for the active sequence when there is one (falling back to the full package if it does not
    /// apply), else the full one. Throws only when the index itself is unusable; per-app failures
    /// are results (and reported to `report` if given).
    public func update(from base: URL, downloader: any PackageDownloader = URLSessionPackageDownloader(),
                       report: URL? = nil, progress: ((Int64, Int64) -> Void)? = nil) async throws(PackageError) -> [PackageUpdateResult] {
        // Verifying and unpacking take CPU and disk for seconds: on Swift's pool, even when called
        // from a task that prefers the main loop (`EngineActor.taskExecutor`), which they would stall.
        try await withTaskExecutorPreference(globalConcurrentExecutor) { () async throws(PackageError) in
            try await updateOnPool(from: base, downloader: downloader, report: report, progress: progress)
        }
    }

    private func updateOnPool(from base: URL, downloader: any PackageDownloader, report: URL?,
                              progress: ((Int64, Int64) -> Void)?) async throws(PackageError) -> [PackageUpdateResult] {
        let index: PackageIndex
        do throws(PackageError) {
            // Both at once: the "nothing new" check is two small requests and one signature check.
            async let data = Self.fetch(downloader, base.appendingPathComponent(PackageIndex.fileName), limit: PackageIndex.maximumBytes)
            async let signature = Self.fetch(downloader, base.appendingPathComponent(PackageIndex.signatureName), limit: 1024)
            index = try PackageIndex.verify(try await data.get(), signature: try await signature.get(), trust: trust, now: now())
        } catch {
            observer?(.failed(appID: nil, reason: error.description))
            await send(report, appID: nil, sequence: nil, error, downloader)
            throw error
        }
        let entries = index.ordered
        let trusted = Dictionary(entries.map { ($0.appID, trustedSequence($0.appID, atLeast: $0.sequence)) }) { a, _ in a }
        observer?(.checked(source: base.absoluteString, available: entries.filter { $0.sequence > trusted[$0.appID] ?? 0 }.map(\.appID)))
        var results = [PackageUpdateResult]()
        for entry in entries {
            let trusted = trusted[entry.appID] ?? 0
            guard entry.sequence > trusted else {
                results.append(.init(appID: entry.appID, outcome: .upToDate(sequence: trusted)))
                continue
            }
            do throws(PackageError) {
                let outcome = try await updateOne(entry, base: base, downloader: downloader, progress: progress)
                results.append(.init(appID: entry.appID, outcome: outcome))
            } catch {
                observer?(.failed(appID: entry.appID, reason: error.description))
                await send(report, appID: entry.appID, sequence: entry.sequence, error, downloader)
                results.append(.init(appID: entry.appID, outcome: .failed(error)))
            }
        }
        return results
    }

    private func updateOne(_ entry: PackageIndex.Entry, base: URL, downloader: any PackageDownloader,
                           progress: ((Int64, Int64) -> Void)?) async throws(PackageError) -> PackageUpdateOutcome {
        if let active = installed(entry.appID), let incremental = entry.incremental.first(where: { $0.baseSequence == active.sequence }) {
            do throws(PackageError) {
                let file = try await fetchPackage(incremental.download, appID: entry.appID, sequence: entry.sequence, base: base, downloader: downloader)
                defer { try? FileManager.default.removeItem(at: file) }
                return .installed(try install(file: file, expectedApp: entry.appID, expectedSequence: entry.sequence, progress: progress), incremental: true)
            } catch {
                guard case .baseMismatch = error else { throw error }
                // Mix-and-match: the incremental does not fit the installed tree; the full package will.
            }
        }
        let file = try await fetchPackage(entry.full, appID: entry.appID, sequence: entry.sequence, base: base, downloader: downloader)
        defer { try? FileManager.default.removeItem(at: file) }
        return .installed(try install(file: file, expectedApp: entry.appID, expectedSequence: entry.sequence, progress: progress), incremental: false)
    }

    /// Downloads (resuming a partial earlier download) and checks the index's size and SHA-256.
    private func fetchPackage(_ download: PackageIndex.Download, appID: String, sequence: Int64, base: URL,
                              downloader: any PackageDownloader) async throws(PackageError) -> URL {
        guard let url = URL(string: download.url, relativeTo: base.appendingPathComponent(PackageIndex.fileName))?.absoluteURL,
              // A file: URL only from a file: index (a local mirror); never a jump from the network to local files.
              ["http", "https"].contains(url.scheme ?? "") || (url.scheme == "file" && base.isFileURL) else {
            throw .invalidManifest("index.json: \(PackageError.printable(download.url)) is not a usable URL")
        }
        let folder = root + "/downloads"
        try StoreFiles.makeDirectories(folder)
        let file = URL(fileURLWithPath: folder + "/\(appID)-\(sequence)-\(download.sha256.prefix(16)).zip")
        try await downloader.download(url, to: file, size: download.size)
        guard let digest = Self.fileDigest(file), digest == download.sha256 else {
            // Not a prefix of the signed file: do not resume from it.
            try? FileManager.default.removeItem(at: file)
            throw .hashMismatch(path: url.absoluteString)
        }
        return file
    }

    private static func fetch(_ downloader: any PackageDownloader, _ url: URL, limit: Int) async -> Result<Data, PackageError> {
        do throws(PackageError) { return .success(try await downloader.fetch(url, limit: limit)) } catch { return .failure(error) }
    }

    static func fileDigest(_ file: URL) -> String? {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        var hasher = SHA256Hex()
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(chunk) }
        return hasher.finalize()
    }

    /// The trusted sequence; the active manifest is read only when state.json is behind the
    /// offered sequence (state.json lags the switch only after a kill, until recover()).
    func trustedSequence(_ appID: String, atLeast offered: Int64 = .max) -> Int64 {
        let recorded = readTrustedSequence(appID)
        guard recorded < offered else { return recorded }
        return max(recorded, installed(appID)?.sequence ?? 0)
    }

    private func send(_ report: URL?, appID: String?, sequence: Int64?, _ error: PackageError, _ downloader: any PackageDownloader) async {
        guard let report else { return }
        let body = PackageFailureReport(appID: appID, sequence: sequence, reason: error.description, time: PackageBuilder.isoString(now()))
        guard let json = try? JSONEncoder().encode(body) else { return }
        await downloader.post(report, json: json)
    }

    /// Installs the preset package shipped with the app on the first start of each app version,
    /// if it is newer than what is installed (a preset shipped with the app, merged at start).
    public func installPreset(file: URL, appVersion: String) throws(PackageError) -> PresetOutcome {
        let marker = root + "/preset-\(PackageManifest.appIDProblem(appVersion) == nil ? appVersion : SHA256Hex.digest(Data(appVersion.utf8)))"
        if StoreFiles.exists(marker) { return .alreadyApplied }
        let verified = try VerifiedPackage.verify(file: file, trust: trust, limits: limits, now: now())
        let outcome: PresetOutcome
        if verified.manifest.sequence <= trustedSequence(verified.manifest.appID) {
            outcome = .notNewer(sequence: trustedSequence(verified.manifest.appID))
        } else {
            outcome = .installed(try install(file: file, expectedApp: verified.manifest.appID))
        }
        try StoreFiles.writeAtomically(Data(appVersion.utf8), to: marker)
        return outcome
    }
}
