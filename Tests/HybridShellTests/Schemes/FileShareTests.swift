import Foundation
import HybridShell
import Testing

@Suite("hybrid-file:// shares in real WebKit")
@EngineActor
struct FileShareTests {
    private func shareMedia(origin: String = "app://", lifetime: Duration? = nil) throws -> String {
        let fixture = try SchemeFixture.shared()
        return try fixture.shares.share(file: fixture.root + "/media.bin", name: "clip one.bin", origin: origin, lifetime: lifetime)
    }

    @Test func fetchAndXHRReadASharedFileByteExact() async throws {
        let view = try await SchemeFixture.appView()
        defer { view.close() }
        let url = try shareMedia()
        #expect(url.hasPrefix("hybrid-file://"))
        let result = try await view.callAsyncJavaScript("""
            const check = bytes => { for (let i = 0; i < bytes.length; i++) if (bytes[i] !== i % 251) return false; return true; };
            const viaFetch = new Uint8Array(await (await fetch(url)).arrayBuffer());
            const xhr = type => new Promise((resolve, reject) => {
                const request = new XMLHttpRequest();
                request.open('GET', url); request.responseType = type;
                request.onload = () => resolve(request.response); request.onerror = () => reject(new Error('xhr failed'));
                request.send();
            });
            const buffer = new Uint8Array(await xhr('arraybuffer'));
            const blob = await xhr('blob');
            const fromBlob = new Uint8Array(await blob.arrayBuffer());
            const ranged = await fetch(url, {headers: {Range: 'bytes=10-19'}});
            return {fetch: viaFetch.length, fetchOK: check(viaFetch), xhr: buffer.length, xhrOK: check(buffer),
                    blob: blob.size, blobOK: check(fromBlob), range: ranged.status,
                    rangeFirst: new Uint8Array(await ranged.arrayBuffer())[0]};
            """, arguments: ["url": .string(url)])
        let size = Double(SchemeFixture.mediaSize)
        #expect(result == ["fetch": .number(size), "fetchOK": true, "xhr": .number(size), "xhrOK": true,
                           "blob": .number(size), "blobOK": true, "range": 206, "rangeFirst": 10])
    }

    @Test func anImageLoadsFromAShare() async throws {
        let view = try await SchemeFixture.appView()
        defer { view.close() }
        let fixture = try SchemeFixture.shared()
        let url = try fixture.shares.share(file: fixture.root + "/pixel.png", origin: "app://")
        let result = try await view.callAsyncJavaScript("""
            const image = new Image();
            await new Promise((resolve, reject) => { image.onload = resolve; image.onerror = () => reject(new Error('image failed')); image.src = url; });
            return {width: image.naturalWidth, height: image.naturalHeight};
            """, arguments: ["url": .string(url)])
        #expect(result == ["width": 2, "height": 1])
    }

    @Test func aStreamShareReachesThePage() async throws {
        let view = try await SchemeFixture.appView()
        defer { view.close() }
        let fixture = try SchemeFixture.shared()
        let url = try fixture.shares.share(stream: {
            AsyncThrowingStream { continuation in
                for index in 0..<4 { continuation.yield(Data(repeating: UInt8(index), count: 100_000)) }
                continuation.finish()
            }
        }, length: 400_000, name: "made.bin", origin: "app://")
        let result = try await view.callAsyncJavaScript("""
            const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
            return {length: bytes.length, first: bytes[0], last: bytes[bytes.length - 1]};
            """, arguments: ["url": .string(url)])
        #expect(result == ["length": 400_000, "first": 0, "last": 3])
    }

    @Test func wrongOriginUnknownRevokedAndExpiredSharesAreRefused() async throws {
        let view = try await SchemeFixture.appView()
        defer { view.close() }
        let fixture = try SchemeFixture.shared()
        let foreign = try shareMedia(origin: "https://other.example")
        let revoked = try shareMedia()
        #expect(fixture.shares.revoke(revoked))
        let expired = try shareMedia(lifetime: .zero)
        let unknown = "hybrid-file://0123456789abcdef0123456789abcdef/clip.bin"
        let result = try await view.callAsyncJavaScript("""
            const status = async url => { try { return (await fetch(url)).status; } catch (e) { return e.name; } };
            const image = url => new Promise(resolve => { const i = new Image(); i.onload = () => resolve('loaded'); i.onerror = () => resolve('error'); i.src = url; });
            return {foreign: await status(foreign), revoked: await status(revoked), expired: await status(expired),
                    unknown: await status(unknown), malformed: await status('hybrid-file://nothex/x'),
                    foreignImage: await image(foreign)};
            """, arguments: ["foreign": .string(foreign), "revoked": .string(revoked), "expired": .string(expired), "unknown": .string(unknown)])
        #expect(result == ["foreign": 403, "revoked": 404, "expired": 404, "unknown": 404, "malformed": 404, "foreignImage": "error"])
    }
}
