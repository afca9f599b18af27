import Foundation
import HybridShell
import Testing

@Suite("Directory handler served on app:/// in real WebKit")
@EngineActor
struct DirectoryHandlerTests {
    @Test func pageIsASecureContextWithItsSubresources() async throws {
        let view = try await SchemeFixture.appView()
        defer { view.close() }
        let result = try await view.callAsyncJavaScript("""
            return {secure: window.isSecureContext, subtle: typeof crypto.subtle?.digest, origin: location.origin,
                    color: getComputedStyle(document.getElementById('status')).color, script: window.fixtureReady === true}
            """)
        #expect(result["secure"] == true)
        #expect(result["subtle"] == "function")
        #expect(result["origin"] == "app://")
        #expect(result["color"] == "rgb(1, 2, 3)")
        #expect(result["script"] == true)
    }

    @Test func contentTypesFollowTheExtension() async throws {
        let view = try await SchemeFixture.appView()
        defer { view.close() }
        let result = try await view.callAsyncJavaScript("""
            const out = {};
            for (const path of ['index.html', 'style.css', 'app.js', 'data.json', 'sub/notes.txt', 'pixel.png', 'media.bin'])
                out[path] = (await fetch(path)).headers.get('content-type');
            return out;
            """)
        #expect(result == [
            "index.html": "text/html; charset=utf-8", "style.css": "text/css; charset=utf-8",
            "app.js": "text/javascript; charset=utf-8", "data.json": "application/json",
            "sub/notes.txt": "text/plain; charset=utf-8", "pixel.png": "image/png", "media.bin": "application/octet-stream",
        ])
    }

    @Test func rangeRequestsAnswer206WithTheRightBytes() async throws {
        let view = try await SchemeFixture.appView()
        defer { view.close() }
        let result = try await view.callAsyncJavaScript("""
            const part = await fetch('media.bin', {headers: {Range: 'bytes=1000-1999'}});
            const bytes = new Uint8Array(await part.arrayBuffer());
            const tail = await fetch('media.bin', {headers: {Range: 'bytes=-10'}});
            const tailBytes = new Uint8Array(await tail.arrayBuffer());
            const beyond = await fetch('media.bin', {headers: {Range: 'bytes=99999999-'}});
            let ok = bytes.length === 1000;
            for (let i = 0; i < bytes.length; i++) if (bytes[i] !== (1000 + i) % 251) ok = false;
            return {status: part.status, range: part.headers.get('content-range'), length: part.headers.get('content-length'), ok,
                    tailStatus: tail.status, tailFirst: tailBytes[0], tailLength: tailBytes.length,
                    beyond: beyond.status, beyondRange: beyond.headers.get('content-range')};
            """)
        let size = SchemeFixture.mediaSize
        #expect(result["status"] == 206)
        #expect(result["range"] == .string("bytes 1000-1999/\(size)"))
        #expect(result["length"] == "1000")
        #expect(result["ok"] == true)
        #expect(result["tailStatus"] == 206)
        #expect(result["tailFirst"] == .number(Double((size - 10) % 251)))
        #expect(result["tailLength"] == 10)
        #expect(result["beyond"] == 416)
        #expect(result["beyondRange"] == .string("bytes */\(size)"))
    }

    @Test func wholeFileArrivesByteExact() async throws {
        let view = try await SchemeFixture.appView()
        defer { view.close() }
        let result = try await view.callAsyncJavaScript("""
            const bytes = new Uint8Array(await (await fetch('media.bin')).arrayBuffer());
            let ok = true;
            for (let i = 0; i < bytes.length; i++) if (bytes[i] !== i % 251) { ok = false; break; }
            return {length: bytes.length, ok};
            """)
        #expect(result == ["length": .number(Double(SchemeFixture.mediaSize)), "ok": true])
    }

    @Test func matchingETagAnswers304() async throws {
        let view = try await SchemeFixture.appView()
        defer { view.close() }
        let result = try await view.callAsyncJavaScript("""
            const first = await fetch('data.json', {cache: 'no-store'});
            const etag = first.headers.get('etag');
            const again = await fetch('data.json', {cache: 'no-store', headers: {'If-None-Match': etag}});
            const other = await fetch('data.json', {cache: 'no-store', headers: {'If-None-Match': '"nope"'}});
            return {etag: etag !== null && etag.length > 2, first: first.status, again: again.status, other: other.status};
            """)
        #expect(result == ["etag": true, "first": 200, "again": 304, "other": 200])
    }

    /// Every way out of the root gets 403 or 404 and never the secret.
    @Test(arguments: [
        ("app:///..%2fsecret.txt", 403),
        ("app:///sub/..%2f..%2fsecret.txt", 403),
        ("app:///..%5csecret.txt", 403),
        ("app:///sub\\..\\..\\secret.txt", 403),
        ("app:///data.json%00.html", 403),
        ("app:///%00", 403),
        ("app:////secret.txt", 403),
        ("app:///sub//notes.txt", 403),
        ("app:///escape.txt", 403),
        ("app:///.hidden", 403),
        ("app:///%2e%2e/secret.txt", 404),
        ("app:///../secret.txt", 404),
        ("app:///sub/../../secret.txt", 404),
        ("app:///missing.txt", 404),
    ])
    func traversalIsRefused(url: String, status: Int) async throws {
        let view = try await SchemeFixture.appView()
        defer { view.close() }
        let result = try await view.callAsyncJavaScript("""
            const response = await fetch(url);
            return {status: response.status, body: await response.text()};
            """, arguments: ["url": .string(url)])
        #expect(result["status"] == .number(Double(status)), "\(url)")
        #expect(result["body"]?.stringValue?.contains(SchemeFixture.secret) == false, "\(url)")
    }

    @Test func linksInsideTheRootAndDirectoryIndexesAreServed() async throws {
        let view = try await SchemeFixture.appView()
        defer { view.close() }
        let result = try await view.callAsyncJavaScript("""
            return {link: (await (await fetch('inside-link.json')).json()).served,
                    sub: (await fetch('sub/')).status, subText: (await (await fetch('sub/notes.txt')).text())};
            """)
        #expect(result == ["link": "by the directory handler", "sub": 200, "subText": "plain text\n"])
    }

    /// `app://HOST/…` serves the same files, as its own origin.
    @Test func aHostNamesTheSameTreeAsItsOwnOrigin() async throws {
        let view = try WebView(context: try SchemeFixture.shared().context)
        defer { view.close() }
        #expect(try await load(view, "app://dist/sub/index.html"))
        let result = try await view.callAsyncJavaScript("return {origin: location.origin, title: document.title}")
        #expect(result == ["origin": "app://dist", "title": "sub index"])
    }
}
