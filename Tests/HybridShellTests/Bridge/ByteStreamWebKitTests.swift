import Foundation
import Testing
@testable import HybridShell

/// `hybrid.stream` in real WebKit: bytes both ways, byte-exact, with back-pressure; a stream the
/// page abandons; navigation ending streams with BRIDGE_RESET; a token refused to another origin.
@Suite("Binary streams (hybrid.stream) in real WebKit")
@EngineActor
struct ByteStreamWebKitTests {
    /// The byte at `index` of the test pattern (the page computes the same).
    nonisolated static func pattern(_ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: (index &* 31) &+ (index >> 16)) }

    nonisolated static func patternChunk(from start: Int, count: Int) -> Data {
        Data((0..<count).map { pattern(start + $0) })
    }

    /// Pattern functions in the page.
    static let pageHelpers = """
        window.pattern = (i) => ((i * 31) + (i >>> 16)) & 255;
        window.fill = (bytes, start) => { for (let i = 0; i < bytes.length; i++) bytes[i] = pattern(start + i); return bytes; };
        // ReadableStream is not async-iterable in WebKitGTK 2.50: read it with a reader.
        window.check = async (readable) => {
          const reader = readable.getReader();
          let count = 0, exact = true;
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return { count, exact };
            for (let i = 0; i < value.length; i++) if (value[i] !== pattern(count + i)) { exact = false; break; }
            count += value.length;
          }
        };
        """

    /// What the native side saw, told on the loop.
    @EngineActor
    final class Outcome {
        var received = (bytes: 0, exact: false)
        let ended = Handoff<String>()
        func end(_ text: String) { ended.fulfill(text) }
        func receive(_ bytes: Int, exact: Bool) { received = (bytes, exact) }
    }

    static func setUp(_ outcome: Outcome) async throws -> (PageManager, FixtureServer, FixtureServer) {
        let app = try await FixtureServer.start(), other = try await FixtureServer.start()
        var configuration = ShellConfiguration()
        configuration.poolSize = 0
        configuration.defaults.allowedOrigins = [try OriginPattern(parsing: other.origin)]
        let streams = try #require(configuration.byteStreams)
        streams.register("source") { stream in
            let size = stream.data["size"]?.intValue ?? 0
            var sent = 0
            do {
                while size == 0 || sent < size {
                    let count = size == 0 ? 1 << 20 : min(1 << 20, size - sent)
                    try await stream.write(patternChunk(from: sent, count: count))
                    sent += count
                }
            } catch let error as BridgeError {
                await outcome.end("\(error.code.rawValue) after \(sent)")
                throw error
            }
        }
        streams.register("sink") { stream in
            var offset = 0, exact = true
            do {
                for try await chunk in stream.incoming {
                    chunk.withUnsafeBytes { bytes in
                        for i in 0..<bytes.count where bytes[i] != pattern(offset + i) { exact = false; break }
                    }
                    offset += chunk.count
                }
                await outcome.receive(offset, exact: exact)
                await outcome.end("closed after \(offset)")
            } catch let error as BridgeError {
                await outcome.end("\(error.code.rawValue) after \(offset)")
            }
        }
        streams.register("echo") { stream in
            for try await chunk in stream.incoming { try await stream.write(chunk) }
        }
        return (try PageManager(configuration: configuration), app, other)
    }

    static func open(_ manager: PageManager, _ url: String) async throws -> Page {
        let page = try manager.open(WebRoute(url))
        let ready = Handoff<Bool>()
        page.bridge.observe { event in if case .ready = event { ready.fulfill(true) } }
        _ = try await ready.value(timeout: .seconds(30), "the bridge of \(url)")
        try await page.run(pageHelpers)
        return page
    }

    static func ended(_ outcome: Outcome) async throws -> String {
        try await outcome.ended.value(timeout: .seconds(30), "the end of the stream's native side")
    }

    @Test func bytesGoBothWaysByteExact() async throws {
        let outcome = Outcome()
        let (manager, app, other) = try await Self.setUp(outcome)
        defer { Task { await manager.closeAll(); app.stop(); other.stop() } }
        let page = try await Self.open(manager, app.url("fixtures/modules/index.html"))
        // STREAM_TEST_MIB=256 for the 256 MiB (about a minute in a debug build).
        let size = (ProcessInfo.processInfo.environment["STREAM_TEST_MIB"].flatMap(Int.init) ?? 24) << 20
        let read = try await page.run("""
            return await check(hybrid.stream('source', { data: { size } }).readable);
            """, ["size": .number(Double(size))])
        #expect(read == ["count": .number(Double(size)), "exact": true])

        // Chunks of many sizes (coalesced small ones, split large ones).
        try await page.run("""
            const { writable } = hybrid.stream('sink', { mode: 'write' });
            const writer = writable.getWriter();
            let offset = 0;
            for (const length of [1, 1000, 65536, 3 << 20, 9 << 20, 7]) {
              await writer.write(fill(new Uint8Array(length), offset));
              offset += length;
            }
            while (offset < size) { const n = Math.min(1 << 20, size - offset); await writer.write(fill(new Uint8Array(n), offset)); offset += n; }
            await writer.close();
            """, ["size": .number(Double(size))])
        #expect(try await Self.ended(outcome) == "closed after \(size)")
        #expect(outcome.received == (size, true))

        // Duplex, written and read at once (an echo holds back when the page does not read).
        let echoed = try await page.run("""
            const { readable, writable } = hybrid.stream('echo', { mode: 'duplex' });
            const writing = (async () => { const w = writable.getWriter(); for (let o = 0; o < 8 << 20; o += 1 << 20) await w.write(fill(new Uint8Array(1 << 20), o)); await w.close(); })();
            const result = await check(readable);
            await writing;
            return result;
            """)
        #expect(echoed == ["count": .number(Double(8 << 20)), "exact": true])
    }

    @Test func aStreamThePageAbandonsStopsTheWriter() async throws {
        let outcome = Outcome()
        let (manager, app, other) = try await Self.setUp(outcome)
        defer { Task { await manager.closeAll(); app.stop(); other.stop() } }
        let page = try await Self.open(manager, app.url("fixtures/modules/index.html"))
        let read = try await page.run("""
            const reader = hybrid.stream('source').readable.getReader();
            let count = 0;
            while (count < (3 << 20)) count += (await reader.read()).value.length;
            await reader.cancel();
            return count >= (3 << 20);
            """)
        #expect(read == true)
        let ended = try await Self.ended(outcome)
        #expect(ended.hasPrefix("CANCELLED after "), "\(ended)")
        // Bounded: the writer waited for the page instead of running ahead.
        let sent = Int(ended.split(separator: " ").last ?? "") ?? .max
        #expect(sent < (3 << 20) + ByteStreams.segmentBytes + ByteStreams.bufferedBytes + (4 << 20), "\(ended)")
    }

    @Test func navigationEndsStreamsWithBridgeReset() async throws {
        let outcome = Outcome()
        let (manager, app, other) = try await Self.setUp(outcome)
        defer { Task { await manager.closeAll(); app.stop(); other.stop() } }
        let page = try await Self.open(manager, app.url("fixtures/modules/index.html"))
        try await page.run("""
            const reader = hybrid.stream('source').readable.getReader();
            await reader.read();
            """)
        page.view.load(app.url("fixtures/modules/index.html?again"))
        let ended = try await Self.ended(outcome)
        #expect(ended.hasPrefix("BRIDGE_RESET after "), "\(ended)")
    }

    @Test func aTokenIsRefusedToAnotherOriginAndUnknownNames() async throws {
        let outcome = Outcome()
        let (manager, app, other) = try await Self.setUp(outcome)
        defer { Task { await manager.closeAll(); app.stop(); other.stop() } }
        let page = try await Self.open(manager, app.url("fixtures/modules/index.html"))
        let url = try await page.run("return (await hybrid.call('stream.open', { name: 'source', mode: 'read', data: { size: 10 } })).url")
        let stranger = try await Self.open(manager, other.url("fixtures/modules/index.html"))
        let status = try await stranger.run("return (await fetch(url + 'read')).status", ["url": url])
        #expect(status == 403)
        // Read to the end by its own page, the token is gone.
        let statuses = try await page.run("""
            const first = await fetch(url + 'read');
            const length = (await first.arrayBuffer()).byteLength;
            return [first.status, length, (await fetch(url + 'read')).status, (await fetch(url + 'read')).status];
            """, ["url": url])
        #expect(statuses == [200, 10, 204, 404])
        let unknown = try await page.run("""
            try { await hybrid.stream('nothing').opened; return 'opened'; } catch (error) { return error.code; }
            """)
        #expect(unknown == "NOT_FOUND")
    }
}
