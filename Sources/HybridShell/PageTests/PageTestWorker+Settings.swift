import HybridShellCore
import HybridShellWebKit

/// What a worker runs its pages with.
extension PageTestWorker {
    struct Settings {
        var limits: PageTestLimits
        var screenshots: ScreenshotMode
        var screenshotDirectory: String
        var additionalOrigins: [OriginPattern]
        var requestedFramework: String?
        var runnerName = "HybridShell"
        /// Hide the view while it is blanked between pages: an offscreen view then does not paint
        /// the blank (measured: ~5 % of a run's CPU). Never for a window someone is looking at.
        var hideWhileBlank = false
    }
}
