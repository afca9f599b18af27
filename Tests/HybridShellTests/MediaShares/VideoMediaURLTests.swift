import Foundation
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit
import Testing

/// `<video>` playing a media share's loopback URL (``FileShares/mediaURL(for:)``) in real WebKit:
/// metadata, a seek (`seeked`), and playback, from a secure `app:` page and from an
/// `http://127.0.0.1` page. The `hybrid-file://` URL of the same share cannot play (WebKitGTK's
/// GStreamer player refuses custom schemes; see VideoSeekTests).
@Suite("<video> plays and seeks media shares through the loopback listener")
@EngineActor
struct VideoMediaURLTests {
    struct Setup {
        let context: WebContext
        let shares: FileShares
        let log: LogCapture
    }

    private static var setup: Setup?

    static func shared() throws -> Setup {
        if let setup { return setup }
        let log = LogCapture()
        let shares = FileShares(logger: log.logger())
        let context = try WebContext(schemes: [
            SchemeRegistration(scheme: "app", handler: try DirectoryHandler(root: Fixtures.page("schemes").path)),
            try shares.registration(),
        ])
        let made = Setup(context: context, shares: shares, log: log)
        setup = made
        return made
    }

    /// Media loads only in a view inside a shown window.
    private func visibleView(_ setup: Setup, _ url: String) async throws -> WebView {
        var configuration = WebViewConfiguration()
        configuration.window = .visible()
        let view = try WebView(configuration: configuration, context: setup.context)
        #expect(try await load(view, url))
        return view
    }

    /// Loads `url` into a new `<video>`, waits for its metadata, seeks to `seekTo` (`seeked`), plays
    /// on for 0.4 s; 25 s page-side deadline per step, reporting how far it got.
    static let playSeekAndPlay = """
        const video = document.createElement('video');
        video.muted = true;
        video.preload = preload;
        document.body.append(video);
        const state = () => `readyState ${video.readyState}, networkState ${video.networkState}, currentTime ${video.currentTime}`;
        const event = (name, until) => new Promise(resolve => {
            const timer = setTimeout(() => resolve({timeout: `no ${name} within 25 s (${state()})`}), 25000);
            const listener = () => {
                if (until && !until()) return;
                clearTimeout(timer);
                video.removeEventListener(name, listener);
                resolve(null);
            };
            video.addEventListener(name, listener);
            video.addEventListener('error', () => { clearTimeout(timer); resolve({error: video.error.code, message: video.error.message}); }, {once: true});
        });
        const metadata = event('loadedmetadata');
        video.src = url;
        let failed = await metadata;
        if (failed) return failed;
        const duration = video.duration;
        const seeked = event('seeked');
        video.currentTime = seekTo;
        failed = await seeked;
        if (failed) return failed;
        const afterSeek = video.currentTime;
        const played = event('timeupdate', () => video.currentTime >= seekTo + 0.4);
        await video.play();
        failed = await played;
        if (failed) return failed;
        video.pause();
        return {duration: Math.round(duration), afterSeek, playedTo: video.currentTime, secure: window.isSecureContext};
        """

    private func expectPlayedAndSeeked(_ result: JSONValue, duration: Int = 4, seekTo: Double = 2.5) {
        #expect(result["duration"] == .number(Double(duration)), "\(result)")
        #expect(result["afterSeek"]?.doubleValue.map { abs($0 - seekTo) < 0.3 } == true, "\(result)")
        #expect(result["playedTo"]?.doubleValue.map { $0 >= seekTo + 0.4 } == true, "\(result)")
    }

    /// An 8 s, 640×480 VP8 clip of noise (~8 MB), made once per run with GStreamer (the fixture
    /// clip is 6 KB: WebKit reads it whole in one request, so a seek never asks for a range).
    static func bigClip() async throws -> String {
        // One encoding per run, shared by the tests that run in parallel (two encoders writing one
        // file made a clip WebKit could not demultiplex).
        if let making = makingClip { return try await making.value }
        let making = Task { try await encodeBigClip() }
        makingClip = making
        return try await making.value
    }

    private static var makingClip: Task<String, any Error>?

    private static func encodeBigClip() async throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-media-\(getpid())-big.webm").path
        // Through CommandLineRun: close-on-exec pipes (no WebKit process another test starts can
        // inherit them) and a waitpid of its own, off this actor's thread and the cooperative ones.
        let run: CommandLineRun
        do {
            run = try await CommandLineRun.run(["-q", "videotestsrc", "pattern=snow", "num-buffers=200", "!", "video/x-raw,width=640,height=480,framerate=25/1",
                                                "!", "vp8enc", "deadline=1", "target-bitrate=8000000", "keyframe-max-dist=25", "!", "webmmux", "!",
                                                "filesink", "location=\(path)"],
                                               executable: "/usr/bin/gst-launch-1.0", deadline: .seconds(120))
        } catch {
            throw RawHTTP.Failure(description: "gst-launch-1.0 (gstreamer1.0-tools): \(error)")
        }
        let status = run.status
        guard status == 0 else { throw RawHTTP.Failure(description: "gst-launch-1.0 exited \(status): \(run.stderr)") }
        return path
    }

    /// The listener's debug lines for requests of `mediaURL` that asked for a range past byte 0.
    private func rangesPastZero(_ setup: Setup, _ mediaURL: String) -> [String] {
        let token = String(URL(string: mediaURL)!.pathComponents[1].prefix(6))
        return setup.log.lines.filter { line in
            guard line.contains("/\(token)…"), let range = line.range(of: "Range bytes=") else { return false }
            let first = line[range.upperBound...].prefix { $0.isNumber }
            return (Int(first) ?? 0) > 0 && line.contains("→ 206")
        }
    }

    @Test func aMediaURLPlaysAndSeeksInASecureAppPage() async throws {
        let setup = try Self.shared()
        let view = try await visibleView(setup, "app:///index.html")
        defer { view.close() }
        let url = try setup.shares.share(file: try await Self.bigClip(), origin: "app://")
        let mediaURL = try #require(try setup.shares.mediaURL(for: url))
        let result = try await view.callAsyncJavaScript(Self.playSeekAndPlay, arguments: ["url": .string(mediaURL), "seekTo": 6.5, "preload": "metadata"])
        expectPlayedAndSeeked(result, duration: 8, seekTo: 6.5)
        #expect(result["secure"] == true, "app: is a secure context, and loopback http is not mixed content there")
        let requests = setup.log.lines.filter { $0.contains("media share: GET") }
        #expect(!requests.isEmpty, "\(setup.log.lines)")
        #expect(!rangesPastZero(setup, mediaURL).isEmpty, "no Range past 0 among \(requests)")
        setup.shares.revoke(url)
    }

    @Test func aMediaURLPlaysAndSeeksInALoopbackHTTPPage() async throws {
        let setup = try Self.shared()
        let server = try await FixtureServer.start()
        defer { server.stop() }
        let view = try await visibleView(setup, server.url("fixtures/schemes/index.html"))
        defer { view.close() }
        let url = try setup.shares.share(file: try await Self.bigClip(), origin: server.origin)
        let mediaURL = try #require(try setup.shares.mediaURL(for: url))
        let result = try await view.callAsyncJavaScript(Self.playSeekAndPlay, arguments: ["url": .string(mediaURL), "seekTo": 6.5, "preload": "metadata"])
        expectPlayedAndSeeked(result, duration: 8, seekTo: 6.5)
        #expect(!rangesPastZero(setup, mediaURL).isEmpty, "no Range past 0 among \(setup.log.lines)")
        setup.shares.revoke(url)
    }

    @Test func aRevokedMediaURLNoLongerPlays() async throws {
        let setup = try Self.shared()
        let view = try await visibleView(setup, "app:///index.html")
        defer { view.close() }
        let url = try setup.shares.share(file: Fixtures.page("schemes/clip.webm").path, origin: "app://")
        let mediaURL = try #require(try setup.shares.mediaURL(for: url))
        setup.shares.revoke(url)
        let result = try await view.callAsyncJavaScript(Self.playSeekAndPlay, arguments: ["url": .string(mediaURL), "seekTo": 2.5, "preload": "auto"])
        #expect(result["error"] != nil, "\(result)")
    }

    @Test func theSmallFixtureClipPlaysAndSeeksToo() async throws {
        let setup = try Self.shared()
        let view = try await visibleView(setup, "app:///index.html")
        defer { view.close() }
        let url = try setup.shares.share(file: Fixtures.page("schemes/clip.webm").path, origin: "app://")
        let mediaURL = try #require(try setup.shares.mediaURL(for: url))
        let result = try await view.callAsyncJavaScript(Self.playSeekAndPlay, arguments: ["url": .string(mediaURL), "seekTo": 2.5, "preload": "auto"])
        expectPlayedAndSeeked(result)
        setup.shares.revoke(url)
    }
}
