import Foundation

extension PackageStore {
    /// ``installPreset(file:appVersion:)`` for a shell starting up: a failure is reported once to the
    /// observer (``PackageEvent/failed(appID:reason:)``) and, if given, POSTed to `report`; the
    /// version installed before stays active. Marks the preset as considered only when it was
    /// installed or found not newer, so a broken preset is tried (and reported) again next start.
    @discardableResult
    public func applyPreset(file: URL, appVersion: String, report: URL? = nil,
                            downloader: any PackageDownloader = URLSessionPackageDownloader()) async -> Result<PresetOutcome, PackageError> {
        do throws(PackageError) {
            return .success(try presetQuietly(file: file, appVersion: appVersion))
        } catch {
            observer?(.failed(appID: nil, reason: "preset \(file.lastPathComponent): \(error.description)"))
            if let report {
                let body = PackageFailureReport(appID: nil, sequence: nil, reason: "preset \(file.lastPathComponent): \(error.description)",
                                                time: PackageBuilder.isoString(now()))
                if let json = try? JSONEncoder().encode(body) { await downloader.post(report, json: json) }
            }
            return .failure(error)
        }
    }

    /// The preset step without the failure event (``install(file:expectedApp:expectedSequence:progress:)`` does not send one).
    private func presetQuietly(file: URL, appVersion: String) throws(PackageError) -> PresetOutcome {
        let marker = root + "/preset-\(PackageManifest.appIDProblem(appVersion) == nil ? appVersion : SHA256Hex.digest(Data(appVersion.utf8)))"
        if StoreFiles.exists(marker) { return .alreadyApplied }
        let verified = try VerifiedPackage.verify(file: file, trust: trust, limits: limits, now: now())
        let outcome: PresetOutcome
        let trusted = trustedSequence(verified.manifest.appID)
        if verified.manifest.sequence <= trusted {
            outcome = .notNewer(sequence: trusted)
        } else {
            outcome = .installed(try install(file: file, expectedApp: verified.manifest.appID, expectedSequence: nil, progress: nil))
        }
        try StoreFiles.makeDirectories(root)
        try StoreFiles.writeAtomically(Data(appVersion.utf8), to: marker)
        return outcome
    }
}
