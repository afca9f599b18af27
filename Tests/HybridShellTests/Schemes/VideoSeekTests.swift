import Foundation
import HybridShell
import Synchronization
import Testing

/// `<video>` reading a `hybrid-file://` share: its requests carry `Range` and get 206 with a
/// correct `Content-Range`, and seeking (`currentTime` → `seeked`) works. The clip is
/// pages/fixtures/schemes/clip.webm: 4 s of 32×24 VP8 at 5 fps, a key frame every second, with
/// cues (GStreamer's vp8enc + webmmux; played by gstreamer1.0-plugins-good).
@Suite("<video> seeking through hybrid-file://")
@EngineActor
struct VideoSeekTests {
    /// One context per suite: `app:` serves the fixture tree, `hybrid-file:` is a FileShares
    /// wrapped so the test sees every request and the status it got.
    struct Setup {
        let context: WebContext
        let shares: FileShares
        let recorder: RangeRecorder
    }

    private static var setup: Setup?

    static func shared() throws -> Setup {
        if let setup { return setup }
        let shares = FileShares()
        let recorder = RangeRecorder(inner: shares)
        let context = try WebContext(schemes: [
            SchemeRegistration(scheme: "app", handler: try DirectoryHandler(root: Fixtures.page("schemes").path)),
            SchemeRegistration(scheme: FileShares.scheme, handler: recorder,
                               security: SchemeSecurity(secure: true, corsOrigins: .anyOrigin)),
        ])
        let made = Setup(context: context, shares: shares, recorder: recorder)
        setup = made
        return made
    }

    /// Media loads only in a view inside a shown window (an unshown view defers it: the element
    /// stays at networkState 3 and makes no request at all).
    private func visibleView(_ setup: Setup) async throws -> WebView {
        var configuration = WebViewConfiguration()
        configuration.window = .visible()
        let view = try WebView(configuration: configuration, context: setup.context)
        #expect(try await load(view, "app:///index.html"))
        return view
    }

    /// Plays `src` to its metadata, seeks to 2.5 s and waits for `seeked` (20 s page-side
    /// deadline per step, reporting how far it got); resolves `{error}` on a media error.
    private static let playAndSeek = """
        const video = document.createElement('video');
        video.muted = true;
        video.preload = 'auto';
        document.body.append(video);
        const state = () => `readyState ${video.readyState}, networkState ${video.networkState}`;
        const event = name => new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`no ${name} within 20 s (${state()})`)), 20000);
            video.addEventListener(name, () => { clearTimeout(timer); resolve(); }, {once: true});
            video.addEventListener('error', () => { clearTimeout(timer); resolve({error: video.error.code}); }, {once: true});
        });
        const metadata = event('loadedmetadata');
        video.src = source === 'blob' ? URL.createObjectURL(await (await fetch(url)).blob()) : url;
        const failed = await metadata;
        if (failed) return failed;
        const seeked = event('seeked');
        video.currentTime = 2.5;
        const seekFailed = await seeked;
        if (seekFailed) return seekFailed;
        return {duration: Math.round(video.duration), currentTime: video.currentTime};
        """

    @Test func videoRequestsCarryRangeAndGet206() async throws {
        let setup = try Self.shared()
        let view = try await visibleView(setup)
        defer { view.close() }
        let clip = Fixtures.page("schemes/clip.webm").path
        let size = try #require(try FileManager.default.attributesOfItem(atPath: clip)[.size] as? NSNumber).intValue
        let url = try setup.shares.share(file: clip, origin: "app://")
        let result = try await view.callAsyncJavaScript(Self.playAndSeek, arguments: ["url": .string(url), "source": "share"])
        let seen = setup.recorder.seen.filter { $0.url == url }
        let ranged = seen.filter { $0.range != nil }
        #expect(!ranged.isEmpty, "no Range request among \(seen)")
        for request in ranged {
            #expect(request.status == 206, "\(request)")
            #expect(request.contentRange.map { RangeRecorder.isValid($0, for: request.range!, size: size) } == true, "\(request)")
        }
        // What blocks playback: WebKitGTK 2.50's GStreamer player takes the 206, then refuses the
        // scheme (GST_DEBUG=webkitcommon:6 shows "isProtocolAllowed … (allowed: no)") and reports
        // MEDIA_ERR_SRC_NOT_SUPPORTED (4) — app: from a DirectoryHandler, or a plain 200, alike.
        // WEBKIT_GST_ALLOWED_URI_PROTOCOLS lets the scheme past that check, but uridecodebin then
        // has no URI handler for it. The same bytes play and seek from a blob: URL (next test),
        // and from the share's loopback media URL (theSameSharePlaysAndSeeksFromItsMediaURL).
        if result["error"] != nil {
            withKnownIssue("<video> does not play custom-scheme URLs on WebKitGTK 2.50 (media error \(result))") {
                Issue.record("media error \(result)")
            }
        } else {
            #expect(result["duration"] == 4)
            #expect(result["currentTime"]?.doubleValue.map { abs($0 - 2.5) < 0.3 } == true, "\(result)")
        }
    }

    /// What the known issue above becomes with ``FileShares/mediaURL(for:)``: the same share,
    /// served over http://127.0.0.1, plays and seeks (more in MediaShares/VideoMediaURLTests).
    @Test func theSameSharePlaysAndSeeksFromItsMediaURL() async throws {
        let setup = try Self.shared()
        let view = try await visibleView(setup)
        defer { view.close() }
        let url = try setup.shares.share(file: Fixtures.page("schemes/clip.webm").path, origin: "app://")
        let mediaURL = try #require(try setup.shares.mediaURL(for: url))
        let result = try await view.callAsyncJavaScript(Self.playAndSeek, arguments: ["url": .string(mediaURL), "source": "share"])
        #expect(result["duration"] == 4, "\(result)")
        #expect(result["currentTime"]?.doubleValue.map { abs($0 - 2.5) < 0.3 } == true, "\(result)")
    }

    @Test func theSharedClipPlaysAndSeeksFromABlobURL() async throws {
        let setup = try Self.shared()
        let view = try await visibleView(setup)
        defer { view.close() }
        let url = try setup.shares.share(file: Fixtures.page("schemes/clip.webm").path, origin: "app://")
        let result = try await view.callAsyncJavaScript(Self.playAndSeek, arguments: ["url": .string(url), "source": "blob"])
        #expect(result["duration"] == 4, "\(result)")
        #expect(result["currentTime"]?.doubleValue.map { abs($0 - 2.5) < 0.3 } == true, "\(result)")
    }

    @Test func aRangeToTheEndAndABoundedRangeAreByteExact() async throws {
        // The two paths a range takes: to the end of the file (a seeked GFileInputStream handed
        // to WebKit) and bounded (streamed in chunks), from the middle and from byte 0.
        let setup = try Self.shared()
        let view = try WebView(context: setup.context)
        defer { view.close() }
        #expect(try await load(view, "app:///index.html"))
        let clip = Fixtures.page("schemes/clip.webm").path
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: clip)))
        let url = try setup.shares.share(file: clip, origin: "app://")
        let result = try await view.callAsyncJavaScript("""
            const read = async range => {
                const response = await fetch(url, {headers: {Range: range}});
                return {status: response.status, contentRange: response.headers.get('Content-Range'),
                        bytes: Array.from(new Uint8Array(await response.arrayBuffer()))};
            };
            return {tail: await read('bytes=5000-'), middle: await read('bytes=100-199'), head: await read('bytes=0-99')};
            """, arguments: ["url": .string(url)])
        #expect(result["tail"]?["status"] == 206)
        #expect(result["tail"]?["contentRange"] == .string("bytes 5000-\(bytes.count - 1)/\(bytes.count)"))
        #expect(result["tail"]?["bytes"] == .array(bytes[5000...].map { .number(Double($0)) }))
        #expect(result["middle"]?["status"] == 206)
        #expect(result["middle"]?["contentRange"] == .string("bytes 100-199/\(bytes.count)"))
        #expect(result["middle"]?["bytes"] == .array(bytes[100..<200].map { .number(Double($0)) }))
        // A bounded range from 0 (what <video> asks first) used to be answered 404.
        #expect(result["head"]?["status"] == 206)
        #expect(result["head"]?["contentRange"] == .string("bytes 0-99/\(bytes.count)"))
        #expect(result["head"]?["bytes"] == .array(bytes[0..<100].map { .number(Double($0)) }))
    }
}

/// Passes requests to a handler and remembers each one's `Range`, status and `Content-Range`.
final class RangeRecorder: URLSchemeHandler {
    struct Seen: Sendable, CustomStringConvertible {
        let url: String
        let range: String?
        let status: Int
        let contentRange: String?
        var description: String { "Range \(range ?? "-") → \(status) \(contentRange ?? "")" }
    }

    let inner: any URLSchemeHandler
    private let log = Mutex<[Seen]>([])

    init(inner: any URLSchemeHandler) { self.inner = inner }

    var seen: [Seen] { log.withLock { $0 } }

    func response(for request: SchemeRequest) async throws -> SchemeResponse {
        let response = try await inner.response(for: request)
        log.withLock { $0.append(Seen(url: request.url, range: request.header("Range"), status: response.status, contentRange: response.header("Content-Range"))) }
        return response
    }

    /// `bytes FIRST-LAST/SIZE` with FIRST as the request asked (`bytes=FIRST-…`) and LAST < SIZE.
    static func isValid(_ contentRange: String, for range: String, size: Int) -> Bool {
        guard range.hasPrefix("bytes="), let asked = Int(range.dropFirst(6).prefix { $0 != "-" }),
              contentRange.hasPrefix("bytes ") else { return false }
        let parts = contentRange.dropFirst(6).split(separator: "/")
        guard parts.count == 2, Int(parts[1]) == size else { return false }
        let bounds = parts[0].split(separator: "-").compactMap { Int($0) }
        return bounds.count == 2 && bounds[0] == asked && bounds[0] <= bounds[1] && bounds[1] < size
    }
}
