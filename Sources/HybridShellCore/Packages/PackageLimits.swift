/// Limits that keep a hostile archive from exhausting memory or disk (zip bombs, endless data).
public struct PackageLimits: Sendable, Equatable {
    /// Most entries in one archive.
    public var maximumEntries: Int
    /// Most bytes of the installed tree (sum of the manifest's sizes).
    public var maximumTotalBytes: Int64
    /// Largest uncompressed/compressed ratio of an entry above ``ratioFloorBytes`` (deflate's
    /// ceiling is about 1 032; real web files stay below 20).
    public var maximumRatio: Int64
    /// Entries smaller than this are not held to the ratio (a 10 KB file of spaces is no bomb).
    public var ratioFloorBytes: Int64
    /// Largest manifest.
    public var maximumManifestBytes: Int
    /// Largest archive file.
    public var maximumArchiveBytes: Int64

    public init(maximumEntries: Int = 20_000, maximumTotalBytes: Int64 = 1 << 30, maximumRatio: Int64 = 200,
                ratioFloorBytes: Int64 = 1 << 20, maximumManifestBytes: Int = 8 << 20, maximumArchiveBytes: Int64 = 1 << 31) {
        self.maximumEntries = maximumEntries
        self.maximumTotalBytes = maximumTotalBytes
        self.maximumRatio = maximumRatio
        self.ratioFloorBytes = ratioFloorBytes
        self.maximumManifestBytes = maximumManifestBytes
        self.maximumArchiveBytes = maximumArchiveBytes
    }

    public static let standard = PackageLimits()
}
