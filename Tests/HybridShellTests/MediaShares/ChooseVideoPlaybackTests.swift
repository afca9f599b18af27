import Foundation
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit
import Testing

/// The seed's `chooseVideo` flow end to end: `wx.chooseVideo()` (the `files` module, headless
/// choice) gives the page a `tempFilePath` that `<video src>` plays and seeks, and a
/// `hybrid-file://` `url` that `fetch` reads.
@Suite("wx.chooseVideo: the chosen clip plays in <video>")
@EngineActor
struct ChooseVideoPlaybackTests {
    @Test func theChosenVideoPlaysAndSeeksFromTempFilePath() async throws {
        let app = try await FixtureServer.start()
        defer { app.stop() }
        let clip = Fixtures.page("schemes/clip.webm").path
        var configuration = ShellConfiguration()
        configuration.poolSize = 0
        configuration.window = .visible()  // media loads only in a shown window
        configuration.modules.enabled = [.files]
        configuration.modules.fileChoice = clip
        let manager = try PageManager(configuration: configuration)
        let opened = app.url("fixtures/modules/index.html")
        let host = try ModuleHost.builtins(configuration.modules, manager: manager, openedURL: opened, dataDirectory: nil,
                                           options: ModuleHost.BuiltinOptions(headless: true))
        defer { _ = host }
        let page = try manager.open(WebRoute(opened))
        let ready = Handoff<Bool>()
        page.bridge.observe { if case .ready = $0 { ready.fulfill(true) } }
        _ = try await ready.value(timeout: .seconds(30), "the bridge of \(opened)")

        let chosen = try await page.view.callAsyncJavaScript("return await wx.chooseVideo()", arguments: [:])
        let tempFilePath = try #require(chosen["tempFilePath"]?.stringValue, "\(chosen)")
        #expect(tempFilePath.hasPrefix("http://127.0.0.1:"), "\(chosen)")
        #expect(chosen["url"]?.stringValue?.hasPrefix("hybrid-file://") == true, "\(chosen)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: clip)[.size] as? NSNumber).intValue
        #expect(chosen["size"] == .number(Double(size)))
        let result = try await page.view.callAsyncJavaScript(VideoMediaURLTests.playSeekAndPlay,
                                                             arguments: ["url": .string(tempFilePath), "seekTo": 2.5, "preload": "auto"])
        #expect(result["duration"] == 4, "\(result)")
        #expect(result["afterSeek"]?.doubleValue.map { abs($0 - 2.5) < 0.3 } == true, "\(result)")
        #expect(result["playedTo"]?.doubleValue.map { $0 >= 2.9 } == true, "\(result)")
        // The page's own fetch of the media URL is a CORS request from the share's origin: allowed.
        let fetched = try await page.view.callAsyncJavaScript("return (await (await fetch(url)).arrayBuffer()).byteLength",
                                                              arguments: ["url": .string(tempFilePath)])
        #expect(fetched == .number(Double(size)))
        await manager.closeAll()
        // Closing the page ends its bridge session: the media URL ends with it.
        let shares = try #require(manager.fileShares)
        await shares.media.settled()
        #expect(shares.media.port == nil, "no media share is left, so the listener stopped")
    }
}
