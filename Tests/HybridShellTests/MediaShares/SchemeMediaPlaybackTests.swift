import Foundation
import HybridShellTestSupport
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit
import Testing

/// `<video>` and `<audio>` of custom schemes in real WebKit (``SchemeMediaRelay``): an unmodified page
/// (pages/fixtures/media) plays and seeks a WebM (VP8) and an Ogg (Vorbis) file from a signed package
/// (`app://demo/`) and from a directory mount (`media:///`), in markup and set from script, headless
/// (the view in no visible window) and in a shown window; another origin cannot play the package's
/// media, and a file outside the signed manifest is not served.
@Suite("<video>/<audio> of app:// packages and directory mounts")
@EngineActor
struct SchemeMediaPlaybackTests {
    struct Setup {
        let context: WebContext
        let store: PackageStore
        let version: URL
    }

    static let fixtures = try! PackageFixtures()
    private static var setup: Setup?

    static func shared() throws -> Setup {
        if let setup { return setup }
        let f = fixtures
        let store = f.store()
        let site = f.path("media-site")
        try? FileManager.default.removeItem(at: site)
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        for file in ["index.html", "clip.webm", "sound.ogg"] {
            try FileManager.default.copyItem(at: Fixtures.page("media/\(file)"), to: site.appendingPathComponent(file))
        }
        try store.install(file: try f.pack(site, "media.zip", sequence: 1, app: "demo"))
        var app = try SchemeRegistration(scheme: "app", handler: PackageSchemeHandler(store: store))
        app.mediaHosts = ["demo"]
        var mount = try SchemeRegistration(scheme: "media", handler: try DirectoryHandler(root: Fixtures.page("media").path))
        mount.mediaHosts = [""]
        let context = try WebContext(schemes: [app, mount])
        let made = Setup(context: context, store: store, version: try #require(store.activeRoot("demo")))
        setup = made
        return made
    }

    private func view(_ url: String, windowed: Bool) async throws -> WebView {
        var configuration = WebViewConfiguration()
        configuration.window = windowed ? .visible() : .offscreen
        let view = try WebView(configuration: configuration, context: try Self.shared().context)
        #expect(try await load(view, url))
        return view
    }

    /// Takes `media` (a selector, or `video`/`audio` to create one with `src` set from script), waits
    /// for its metadata, seeks to `seekTo` (`seeked`), plays until `currentTime` passes it by 0.3 s;
    /// 25 s page-side deadline per step, reporting how far it got; `{error}` on a media error.
    static let playAndSeek = """
        let media = document.querySelector(selector);
        if (!media) {
            media = create === 'audio' ? new Audio(src) : document.createElement('video');
            if (create !== 'audio') { media.muted = true; media.src = src; document.body.append(media); }
        }
        const state = () => `readyState ${media.readyState}, networkState ${media.networkState}, currentTime ${media.currentTime}`;
        const event = (name, until) => new Promise(resolve => {
            const timer = setTimeout(() => resolve({timeout: `no ${name} within 25 s (${state()})`}), 25000);
            const done = value => { clearTimeout(timer); media.removeEventListener(name, listener); resolve(value); };
            const listener = () => { if (!until || until()) done(null); };
            media.addEventListener(name, listener);
            media.addEventListener('error', () => done({error: media.error.code, message: media.error.message}), {once: true});
            if (media.error) done({error: media.error.code, message: media.error.message});
        });
        let failed = media.readyState >= 1 ? null : await event('loadedmetadata');
        if (failed) return failed;
        const seeked = event('seeked');
        media.currentTime = seekTo;
        if ((failed = await seeked)) return failed;
        const afterSeek = media.currentTime;
        const played = event('timeupdate', () => media.currentTime >= seekTo + 0.3);
        media.muted = true;
        await media.play();
        if ((failed = await played)) return failed;
        media.pause();
        return {duration: Math.round(media.duration), afterSeek, playedTo: media.currentTime,
                src: media.src, currentSrc: media.currentSrc, attribute: media.getAttribute('src')};
        """

    private func play(_ view: WebView, selector: String = "none", create: String = "", src: String = "", seekTo: Double) async throws -> JSONValue {
        try await view.callAsyncJavaScript(Self.playAndSeek, arguments: ["selector": .string(selector), "create": .string(create),
                                                                         "src": .string(src), "seekTo": .number(seekTo)])
    }

    private func expectPlayed(_ result: JSONValue, duration: Int, seekTo: Double, _ what: String) {
        #expect(result["duration"] == .number(Double(duration)), "\(what): \(result)")
        #expect(result["afterSeek"]?.doubleValue.map { abs($0 - seekTo) < 0.3 } == true, "\(what): \(result)")
        #expect(result["playedTo"]?.doubleValue.map { $0 >= seekTo + 0.3 } == true, "\(what): \(result)")
    }

    @Test(arguments: [false, true])
    func markupMediaOfASignedPackagePlaysAndSeeks(windowed: Bool) async throws {
        let view = try await view("app://demo/index.html", windowed: windowed)
        defer { view.close() }
        let video = try await play(view, selector: "#video", seekTo: 2.5)
        expectPlayed(video, duration: 4, seekTo: 2.5, "video")
        #expect(video["src"] == "app://demo/clip.webm", "the page reads its own URL back: \(video)")
        #expect(video["currentSrc"] == "app://demo/clip.webm", "\(video)")
        #expect(video["attribute"] == "clip.webm", "\(video)")
        let audio = try await play(view, selector: "#audio", seekTo: 5)
        expectPlayed(audio, duration: 8, seekTo: 5, "audio")
        #expect(audio["currentSrc"] == "app://demo/sound.ogg", "\(audio)")
    }

    @Test(arguments: [false, true])
    func mediaSetFromScriptInADirectoryMountPlaysAndSeeks(windowed: Bool) async throws {
        let view = try await view("media:///index.html", windowed: windowed)
        defer { view.close() }
        let video = try await play(view, create: "video", src: "clip.webm", seekTo: 2.5)
        expectPlayed(video, duration: 4, seekTo: 2.5, "video")
        #expect(video["src"] == "media:///clip.webm", "\(video)")
        let audio = try await play(view, create: "audio", src: "sound.ogg", seekTo: 5)
        expectPlayed(audio, duration: 8, seekTo: 5, "audio")
        #expect(audio["src"] == "media:///sound.ogg", "\(audio)")
    }

    @Test func aSeekPastTheEndStopsAtTheEnd() async throws {
        let view = try await view("app://demo/index.html", windowed: false)
        defer { view.close() }
        let result = try await view.callAsyncJavaScript("""
            const video = document.getElementById('video');
            if (video.readyState < 1) await new Promise((resolve, reject) => {
                video.addEventListener('loadedmetadata', resolve, {once: true});
                video.addEventListener('error', () => reject(new Error('media error ' + video.error.code)), {once: true});
            });
            const seeked = new Promise(resolve => video.addEventListener('seeked', resolve, {once: true}));
            video.currentTime = 100;
            await Promise.race([seeked, new Promise((_, reject) => setTimeout(() => reject(new Error('no seeked within 25 s')), 25000))]);
            return {currentTime: video.currentTime, duration: video.duration, ended: video.ended, error: video.error ? video.error.code : null};
            """)
        #expect(result["error"] == .null, "\(result)")
        #expect(result["ended"] == true, "\(result)")
        #expect(result["currentTime"]?.doubleValue.map { abs($0 - 4) < 0.3 } == true, "\(result)")
    }

    @Test func anotherOriginCannotPlayThePackagesMedia() async throws {
        let view = try await view("media:///index.html", windowed: false)
        defer { view.close() }
        let result = try await play(view, create: "video", src: "app://demo/clip.webm", seekTo: 1)
        #expect(result["error"] != nil, "a media:/// page played app://demo media: \(result)")
    }

    @Test func aFileOutsideTheSignedManifestIsNotServed() async throws {
        let setup = try Self.shared()
        let extra = setup.version.appendingPathComponent("extra.webm")
        try? FileManager.default.copyItem(at: Fixtures.page("media/clip.webm"), to: extra)
        let view = try await view("app://demo/index.html", windowed: false)
        defer { view.close() }
        let result = try await play(view, create: "video", src: "extra.webm", seekTo: 1)
        #expect(result["error"] != nil, "a file the manifest does not list played: \(result)")
        let relay = try #require(setup.context.mediaRelay)
        let url = try #require(relay.relayURL(for: "app://demo/extra.webm"))
        let path = String(url.dropFirst("http://127.0.0.1:\(relay.port)".count))
        let response = try await RawHTTP.send(port: relay.port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(relay.port)")
        #expect(response.status == 404, "\(response)")
    }
}
