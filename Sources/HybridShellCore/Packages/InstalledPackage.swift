import Foundation

/// An app as the store has it: the active version, and what a server needs to answer from it.
public struct InstalledPackage: Sendable, Equatable {
    public let manifest: PackageManifest
    /// The directory holding the active version's files (what `app://<appID>/…` serves).
    public let root: URL
    /// The highest sequence ever installed (rollback protection survives a user's rollback).
    public let trustedSequence: Int64
    /// The version a ``PackageStore/rollback(_:)`` would return to.
    public let previousSequence: Int64?

    public var appID: String { manifest.appID }
    public var version: String { manifest.version }
    public var sequence: Int64 { manifest.sequence }
    /// The entry page, a path under ``root``.
    public var entry: String { manifest.entry }
    /// Online path → file path under ``root``.
    public var pathMap: [String: String] { manifest.pathMap }
}
