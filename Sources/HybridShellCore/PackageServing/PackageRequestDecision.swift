/// What `app://<appID>/<path>` answers, decided from the request's host and raw path and the
/// active manifest alone. Pure: ``PackageSchemeHandler`` looks the app up, then asks this.
///
/// Only files the signed manifest lists are served; a file that appears in the install directory
/// afterwards is 404 like any other unknown path. The path is checked with
/// ``SchemePathResolver/segments(of:)`` first (`..%2f`, `%00`, `//`, backslashes, hidden files: 403).
public enum PackageRequestDecision: Sendable, Equatable {
    /// Serve the manifest file at `path` (relative to the version's root), `sha256` as its ETag.
    case serve(path: String, sha256: String, size: Int64)
    /// 404, with the reason.
    case notFound(String)
    /// 403, with the reason.
    case forbidden(String)

    /// The decision for `rawPath` (as WebKit gives it) against `manifest`. `/` is the entry page;
    /// a directory path answers with its `index.html` when the manifest lists one.
    public static func decide(rawPath: String, manifest: PackageManifest) -> PackageRequestDecision {
        let segments: [String]
        switch SchemePathResolver.segments(of: rawPath) {
        case .failure(let refusal): return .forbidden(refusal.reason)
        case .success(let value): segments = value
        }
        let joined = segments.joined(separator: "/")
        let candidates = joined.isEmpty ? [manifest.entry] : [joined, joined + "/index.html"]
        for candidate in candidates {
            if let file = file(candidate, in: manifest.files) {
                return .serve(path: file.path, sha256: file.sha256, size: file.size)
            }
        }
        return .notFound("\(joined.isEmpty ? "/" : joined) is not a file of \(manifest.appID) sequence \(manifest.sequence)")
    }

    /// Binary search: the manifest keeps ``PackageManifest/files`` sorted by path.
    static func file(_ path: String, in files: [PackageManifest.File]) -> PackageManifest.File? {
        var low = 0, high = files.count
        while low < high {
            let middle = (low + high) / 2
            if files[middle].path < path { low = middle + 1 } else { high = middle }
        }
        if low < files.count, files[low].path == path { return files[low] }
        // A manifest decoded from JSON is sorted by its producer; do not rely on it for correctness.
        return files.first { $0.path == path }
    }
}
