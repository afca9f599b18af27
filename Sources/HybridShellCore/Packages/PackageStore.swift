#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The installed offline packages under one directory: install, list, roll back, remove, and the
/// active version's files for serving. Every change takes an exclusive lock on the store, first
/// cleans up after any interrupted run (``recover()``), and switches versions by renaming one
/// symlink, so a reader (or a restart after `kill -9`) sees the old version or the new one, never
/// a mix. Layout and invariants: docs/offline-packages.md.
public final class PackageStore: Sendable {
    public let directory: URL
    public let trust: TrustedKeys
    public let limits: PackageLimits
    /// The versions whose kept archive verified (or did not), so a server checks each once.
    let signedVersions = SignedVersions()
    let now: @Sendable () -> Date
    let observer: (@Sendable (PackageEvent) -> Void)?

    public init(directory: URL, trust: TrustedKeys, limits: PackageLimits = .standard,
                now: @escaping @Sendable () -> Date = { Date() }, observer: (@Sendable (PackageEvent) -> Void)? = nil) {
        self.directory = directory.standardizedFileURL
        self.trust = trust
        self.limits = limits
        self.now = now
        self.observer = observer
    }

    var root: String { directory.path }
    var appsPath: String { root + "/apps" }
    var stagingPath: String { root + "/staging" }
    func appPath(_ appID: String) -> String { appsPath + "/" + appID }

    // MARK: - Reading (no lock: the symlink is switched atomically)

    /// The active version of every installed app, by app id.
    public func list() -> [InstalledPackage] {
        StoreFiles.contents(appsPath).compactMap { installed($0) }
    }

    /// The active version of `appID`, or nil when it is not installed.
    public func installed(_ appID: String) -> InstalledPackage? {
        guard PackageManifest.appIDProblem(appID) == nil, let version = activeVersionPath(appID),
              let manifest = Self.readManifest(version) else { return nil }
        let previous = StoreFiles.linkTarget(appPath(appID) + "/previous").flatMap { Self.readManifest(appPath(appID) + "/" + $0) }
        return InstalledPackage(manifest: manifest, root: URL(fileURLWithPath: version + "/files"),
                                trustedSequence: max(readTrustedSequence(appID), manifest.sequence),
                                previousSequence: previous?.sequence)
    }

    /// The directory of the active version's files. Resolved once: a reader that keeps it keeps
    /// reading one version even if an update switches meanwhile.
    public func activeRoot(_ appID: String) -> URL? { installed(appID)?.root }

    /// The active version's manifest (entry page, path map).
    public func activeManifest(_ appID: String) -> PackageManifest? { installed(appID)?.manifest }

    func activeVersionPath(_ appID: String) -> String? {
        StoreFiles.linkTarget(appPath(appID) + "/current").map { appPath(appID) + "/" + $0 }
    }

    static func readManifest(_ versionPath: String) -> PackageManifest? {
        guard let data = FileManager.default.contents(atPath: versionPath + "/manifest.json") else { return nil }
        return try? PackageManifest.decode(data)
    }

    func readTrustedSequence(_ appID: String) -> Int64 {
        guard let data = FileManager.default.contents(atPath: appPath(appID) + "/state.json"),
              let state = try? JSONDecoder().decode(StoreState.self, from: data) else { return 0 }
        return state.trustedSequence
    }

    func writeTrustedSequence(_ appID: String, _ sequence: Int64) throws(PackageError) {
        let data = (try? JSONEncoder().encode(StoreState(trustedSequence: sequence))) ?? Data()
        try StoreFiles.writeAtomically(data, to: appPath(appID) + "/state.json")
    }

    // MARK: - Changing

    /// Verifies and installs a package file, making it the active version; the version it replaces
    /// is kept for ``rollback(_:)``. On any failure the active version is unchanged.
    /// - Parameters:
    ///   - expectedApp: refuse a package for another app (an update names the app it asked for).
    ///   - progress: bytes written so far and in all, called after each file.
    @discardableResult
    public func install(file: URL, expectedApp: String? = nil,
                        progress: ((Int64, Int64) -> Void)? = nil) throws(PackageError) -> InstalledPackage {
        do throws(PackageError) {
            return try install(file: file, expectedApp: expectedApp, expectedSequence: nil, progress: progress)
        } catch {
            observer?(.failed(appID: expectedApp, reason: error.description))
            throw error
        }
    }

    /// Installs without reporting a failure (``update(from:downloader:report:progress:)`` reports it, once).
    func install(file: URL, expectedApp: String?, expectedSequence: Int64?,
                 progress: ((Int64, Int64) -> Void)?) throws(PackageError) -> InstalledPackage {
        try locked { () throws(PackageError) in
            try installLocked(file: file, expectedApp: expectedApp, expectedSequence: expectedSequence, progress: progress)
        }
    }

    private func installLocked(file: URL, expectedApp: String?, expectedSequence: Int64?,
                               progress: ((Int64, Int64) -> Void)?) throws(PackageError) -> InstalledPackage {
        let offered = try VerifiedPackage.verify(file: file, trust: trust, limits: limits, now: now())
        let manifest = offered.manifest
        if let expectedSequence, expectedSequence != manifest.sequence {
            // The index and the package it points to disagree: a mix-and-match of signed pieces.
            throw .invalidManifest("the index offers sequence \(expectedSequence) but the package is sequence \(manifest.sequence)")
        }
        let app = appPath(manifest.appID)
        let active = installed(manifest.appID)
        let decision = try InstallDecision.decide(manifest, expectedApp: expectedApp,
                                                  trustedSequence: max(readTrustedSequence(manifest.appID), active?.sequence ?? 0),
                                                  active: active?.manifest)
        observer?(.started(appID: manifest.appID, sequence: manifest.sequence, incremental: decision == .incremental))
        var archive = stat()
        let archiveSize = stat(file.path, &archive) == 0 ? Int64(archive.st_size) : 0
        let needed = manifest.files.reduce(Int64(0)) { $0 + $1.size } + Int64(offered.manifestBytes.count) + archiveSize
        try StoreFiles.makeDirectories(stagingPath)
        if let free = StoreFiles.freeBytes(stagingPath), free < needed + (64 << 10) {
            throw .diskFull("the package needs \(needed) bytes, \(free) are free in \(root)")
        }
        let staging = stagingPath + "/\(manifest.appID)-\(manifest.sequence)-\(UInt32.random(in: 0...UInt32.max))"
        do throws(PackageError) {
            try StoreFiles.makeDirectories(staging + "/files")
            // The signed archive is kept with the version: serving checks the manifest's signature
            // from it (SignedVersions). The copy is verified again and extracted from, so what is
            // kept is what was installed even if `file` changes meanwhile.
            try StoreFiles.copy(file.path, to: staging + "/" + Self.signedArchiveName)
            let package = try VerifiedPackage.verify(file: URL(fileURLWithPath: staging + "/" + Self.signedArchiveName),
                                                     trust: trust, limits: limits, now: now())
            guard package.manifestBytes == offered.manifestBytes else { throw .badSignature("the package changed while it was installed") }
            try PackageExtractor.extract(package, into: staging, base: decision == .incremental ? active?.root.path : nil,
                                         progress: progress)
            try StoreFiles.writeAtomically(package.manifestBytes, to: staging + "/manifest.json")
            try StoreFiles.syncFileSystem(staging)
            try StoreFiles.makeDirectories(app + "/versions")
            let target = "versions/\(manifest.sequence)"
            // Left by a run killed after this rename and before the switch; recover() normally removes it.
            StoreFiles.removeTree(app + "/" + target)
            guard rename(staging, app + "/" + target) == 0 else { throw StoreFiles.error(app + "/" + target) }
            StoreFiles.fsyncPath(app + "/versions")
        } catch {
            StoreFiles.removeTree(staging)
            throw error
        }
        // The switch, with everything that can fail for want of space written before it.
        let commit = InstallCommit(sequence: manifest.sequence, current: StoreFiles.linkTarget(app + "/current"),
                                   previous: StoreFiles.linkTarget(app + "/previous"))
        do throws(PackageError) { try commit.run(on: AppDirectory(path: app)) } catch {
            StoreFiles.removeTree(app + "/versions/\(manifest.sequence)")
            throw error
        }
        guard let now = installed(manifest.appID) else { throw .io(path: app, reason: "the installed version cannot be read back") }
        observer?(.installed(appID: manifest.appID, version: manifest.version, sequence: manifest.sequence))
        return now
    }

    /// Makes the previous version active again and deletes the one it replaces. The trusted
    /// sequence stays, so the rolled-back-from version is not offered again; a newer one is.
    @discardableResult
    public func rollback(_ appID: String) throws(PackageError) -> InstalledPackage {
        try locked { () throws(PackageError) in
            let app = appPath(appID)
            guard PackageManifest.appIDProblem(appID) == nil, let current = StoreFiles.linkTarget(app + "/current") else {
                throw .notInstalled("\(appID) is not installed")
            }
            guard let previous = StoreFiles.linkTarget(app + "/previous") else {
                throw .notInstalled("\(appID) has no previous version to roll back to")
            }
            try StoreFiles.pointLink(app + "/current", to: previous)
            unlink(app + "/previous")
            StoreFiles.fsyncPath(app)
            StoreFiles.removeTree(app + "/" + current)
            guard let now = installed(appID) else { throw .io(path: app, reason: "the previous version cannot be read") }
            observer?(.rolledBack(appID: appID, sequence: now.sequence))
            return now
        }
    }

    /// Removes an app with all its versions and its trusted sequence.
    public func remove(_ appID: String) throws(PackageError) {
        try locked { () throws(PackageError) in
            let app = appPath(appID)
            guard PackageManifest.appIDProblem(appID) == nil, StoreFiles.exists(app) else { throw .notInstalled("\(appID) is not installed") }
            try StoreFiles.makeDirectories(stagingPath)
            // One rename takes it out of sight; the slow delete happens where recover() finishes it.
            let doomed = stagingPath + "/removed-\(appID)-\(UInt32.random(in: 0...UInt32.max))"
            guard rename(app, doomed) == 0 else { throw StoreFiles.error(app) }
            StoreFiles.fsyncPath(appsPath)
            StoreFiles.removeTree(doomed)
            observer?(.removed(appID: appID))
        }
    }

    /// Finishes or undoes whatever an interrupted run left: empties staging, drops half-made links
    /// and versions no link names, and records a switched-to version's sequence as trusted if the
    /// run died between the switch and that write. Runs under the lock before every change.
    public func recover() {
        StoreFiles.contents(stagingPath).forEach { StoreFiles.removeTree(stagingPath + "/" + $0) }
        for appID in StoreFiles.contents(appsPath) {
            let app = appPath(appID)
            for leftover in ["current.new", "previous.new", "state.json.tmp"] { unlink(app + "/" + leftover) }
            let current = StoreFiles.linkTarget(app + "/current")
            var previous = StoreFiles.linkTarget(app + "/previous")
            if previous != nil, previous == current {
                unlink(app + "/previous")
                previous = nil
            }
            for version in StoreFiles.contents(app + "/versions") where "versions/" + version != current && "versions/" + version != previous {
                StoreFiles.removeTree(app + "/versions/" + version)
            }
            guard current != nil else {
                if !StoreFiles.exists(app + "/state.json") { StoreFiles.removeTree(app) }
                continue
            }
            if let active = activeVersionPath(appID).flatMap(Self.readManifest), active.sequence > readTrustedSequence(appID) {
                try? writeTrustedSequence(appID, active.sequence)
            }
        }
    }

    /// Runs `body` holding the store's lock file (flock: released by the kernel if the process dies).
    func locked<T>(_ body: () throws(PackageError) -> T) throws(PackageError) -> T {
        try StoreFiles.makeDirectories(appsPath)
        let lockPath = root + "/.lock"
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw StoreFiles.error(lockPath) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw StoreFiles.error(lockPath) }
        }
        recover()
        return try body()
    }
}

/// state.json: what the store must remember about an app beyond its files.
struct StoreState: Codable {
    var trustedSequence: Int64
}
