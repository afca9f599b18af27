import Foundation
import HybridShellCore
import HybridShellWebKit

/// Where a page's screenshots go, and taking one with a deadline.
extension PageTestWorker {
    func screenshotPath(for run: Run, name: String) -> String {
        let page = PageTestWorker.fileName(run.page.name) + (run.attempt > 1 ? "-attempt\(run.attempt)" : "")
        return settings.screenshotDirectory + "/" + page + "/" + PageTestWorker.fileName(name) + ".png"
    }

    /// The URL without its fragment and percent-decoded, so that WebKit's spelling of a URL and
    /// ours compare equal.
    static func withoutFragment(_ url: String?) -> String {
        guard let url else { return "" }
        let document = url.firstIndex(of: "#").map { String(url[..<$0]) } ?? url
        return document.removingPercentEncoding ?? document
    }

    /// Letters, digits, `.`, `-` and `_`; the rest becomes `_`, at most 100 characters.
    static func fileName(_ text: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")
        let mapped = String(text.map { allowed.contains($0) ? $0 : "_" }.prefix(100))
        return mapped.hasPrefix(".") ? "_" + mapped.dropFirst() : mapped
    }

    /// A stuck web process never answers a snapshot request, so it gets a deadline.
    func snapshot(_ view: WebView, to path: String, within limit: Duration) async -> Bool {
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        } catch {
            return false
        }
        let race = SnapshotRace()
        return await withCheckedContinuation { continuation in
            race.continuation = continuation
            race.timer = LoopTimer(after: limit) { race.settle(false) }
            Task { @EngineActor in
                let written = (try? await view.snapshot(toPNG: path)) != nil
                race.settle(written)
            }
        }
    }
}

/// Whichever comes first: the snapshot, or its deadline.
@EngineActor
private final class SnapshotRace {
    var continuation: CheckedContinuation<Bool, Never>?
    var timer: LoopTimer?

    func settle(_ written: Bool) {
        timer?.cancel()
        continuation?.resume(returning: written)
        continuation = nil
    }
}
