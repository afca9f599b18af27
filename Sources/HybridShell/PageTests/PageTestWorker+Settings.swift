/// What a worker runs its pages with.
extension PageTestWorker {
    struct Settings {
        var limits: PageTestLimits
        var screenshots: ScreenshotMode
        var screenshotDirectory: String
        var additionalOrigins: [OriginPattern]
        var requestedFramework: String?
        var runnerName = "HybridShell"
    }
}
