import Foundation
import HybridShell
import Testing

/// Issue 15: large http bodies (wx.downloadFile, responseType 'file', bodies over the inline
/// limit) and chosen files reach the page as hybrid-file:// URLs of its origin and session only;
/// a download's file is deleted when its share ends.
@Suite("modules: hybrid-file:// URLs for downloads and chosen files, in real WebKit", .serialized)
@EngineActor
struct ModuleFileShareTests {
    nonisolated static let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: ($0 &* 7) ^ ($0 >> 8)) })
    nonisolated static let checksum = bytes.reduce(0) { ($0 * 31 + Int($1)) % 1_000_000_007 }

    /// Fetches `url` in the page: `{status, length, sum}` or `{error}` when the fetch itself fails.
    static let fetchScript = """
        try {
          const response = await fetch(url);
          if (!response.ok) return { status: response.status };
          const view = new Uint8Array(await response.arrayBuffer());
          let sum = 0;
          for (const byte of view) sum = (sum * 31 + byte) % 1000000007;
          return { status: response.status, length: view.length, sum };
        } catch (error) {
          return { error: String(error) };
        }
        """

    @Test func downloadsArriveAsExactBytesForTheirOriginOnlyAndAreDeletedWithTheirDocument() async throws {
        let api = try await FixtureServer.start()
        defer { api.stop() }
        api.route("/big.bin") { _ in FixtureServer.Response(status: 200, headers: ["Content-Type": "application/octet-stream"], body: Self.bytes) }
        api.route("/small.json") { _ in .text(#"{"small":true}"#, type: "application/json") }
        let fixture = try await ModuleFixture([.http], grants: { other in [Capability(origins: [try OriginPattern(parsing: other)], modules: ["http"])] },
                                              configure: {
            $0.httpAllow = [try! OriginPattern(parsing: api.origin)]
            $0.httpInlineLimit = 100_000
        })
        let page = try await fixture.openApp()
        let downloads = try #require(fixture.host.downloads)

        // wx.downloadFile: tempFilePath is a hybrid-file URL with the exact bytes.
        let downloaded = try await page.run("return await wx.downloadFile({ url })", ["url": .string(api.url("big.bin"))])
        #expect(downloaded["errMsg"] == "downloadFile:ok", "\(downloaded)")
        #expect(downloaded["statusCode"] == 200)
        let url = try #require(downloaded["tempFilePath"]?.stringValue)
        #expect(url.hasPrefix("hybrid-file://"), "\(url)")
        let fetched = try await page.run(Self.fetchScript, ["url": .string(url)])
        #expect(fetched["length"] == .number(Double(Self.bytes.count)), "\(fetched)")
        #expect(fetched["sum"] == .number(Double(Self.checksum)))

        // A body over the inline limit comes as a URL too; a small one stays inline.
        let large = try await page.hybridCall("http.request", ["url": .string(api.url("big.bin"))])
        #expect(large["ok"]?["data"] == nil, "\(large)")
        #expect(large["ok"]?["size"] == .number(Double(Self.bytes.count)))
        let largeURL = try #require(large["ok"]?["tempFilePath"]?.stringValue)
        #expect(try await page.run(Self.fetchScript, ["url": .string(largeURL)])["sum"] == .number(Double(Self.checksum)))
        let small = try await page.hybridCall("http.request", ["url": .string(api.url("small.json"))])
        #expect(small["ok"]?["data"] == ["small": true])
        #expect(small["ok"]?["tempFilePath"] == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: downloads.directory).count == 2, "one file per download, no leftovers")

        // Another origin (allowed http itself) cannot read this page's downloads.
        let other = try await fixture.openOther()
        let refused = try await other.run(Self.fetchScript, ["url": .string(url)])
        #expect(refused["status"] == 403 || refused["error"] != nil, "\(refused)")
        #expect(refused["sum"] == nil)
        let wrongType = try await other.hybridCall("http.request", ["url": .string(api.url("big.bin")), "responseType": "blob"])
        #expect(wrongType["error"]?["message"] == #"http.request: responseType must be json, text or file, not "blob""#)

        // The document goes away: its shares end and the downloaded files are deleted.
        await fixture.manager.close(page)
        #expect(try FileManager.default.contentsOfDirectory(atPath: downloads.directory).isEmpty)
        let gone = try await other.run(Self.fetchScript, ["url": .string(url)])
        #expect(gone["sum"] == nil)
        await fixture.close()
    }

    @Test func aRevokedDownloadIsDeleted() async throws {
        let api = try await FixtureServer.start()
        defer { api.stop() }
        api.route("/big.bin") { _ in FixtureServer.Response(status: 200, headers: [:], body: Self.bytes) }
        let fixture = try await ModuleFixture([.http], configure: { $0.httpAllow = [try! OriginPattern(parsing: api.origin)] })
        let page = try await fixture.openApp()
        let answer = try await page.hybridCall("http.request", ["url": .string(api.url("big.bin")), "responseType": "file"])
        let url = try #require(answer["ok"]?["tempFilePath"]?.stringValue)
        let directory = try #require(fixture.host.downloads?.directory)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).count == 1)
        #expect(fixture.manager.fileShares?.revoke(url) == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
        #expect(try await page.run(Self.fetchScript, ["url": .string(url)])["status"] == 404)
        await fixture.close()
    }
}
