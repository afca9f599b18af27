import Foundation
import HybridShell
import Testing

@Suite("files module headless: a configured choice, atomic saves, bad names")
@EngineActor
struct FilesModuleTests {
    @Test func chooseIsAnsweredByConfigurationAndSaveWritesIntoTheDataDirectory() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("modules-files-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let chosen = Fixtures.page("modules/second.html").path
        let fixture = try await ModuleFixture([.files], dataDirectory: directory, configure: { $0.fileChoice = chosen })
        let page = try await fixture.openApp()
        let choice = try await page.run("return await wx.chooseImage()")
        let url = try #require(choice["tempFilePaths"]?[0]?.stringValue)
        #expect(url.hasPrefix("hybrid-file://"), "the page gets a URL, not the path: \(url)")
        #expect((choice["tempFiles"]?[0]?["size"]?.doubleValue ?? 0) > 0)
        let read = try await page.run("return await (await fetch(url)).text()", ["url": .string(url)])
        #expect(read == .string(try String(contentsOfFile: chosen, encoding: .utf8)))
        let video = try await page.run("return await wx.chooseVideo()")
        #expect(video["tempFilePath"]?.stringValue?.hasPrefix("hybrid-file://") == true, "\(video)")
        // Another origin cannot read the chosen file through the URL.
        let other = try await fixture.openOther()
        let refused = try await other.run("try { return (await fetch(url)).status } catch (e) { return 'refused' }", ["url": .string(url)])
        #expect(refused == 403 || refused == "refused", "\(refused)")

        let text = try await page.hybridCall("files.save", ["name": "note.txt", "data": "héllo"])
        #expect(text["ok"]?["path"] == .string(directory + "/files/note.txt"))
        #expect(try String(contentsOfFile: directory + "/files/note.txt", encoding: .utf8) == "héllo")
        let binary = try await page.hybridCall("files.save", ["name": "bytes.bin", "data": "AAEC/w==", "encoding": "base64"])
        #expect(binary["ok"]?["size"] == 4)
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/files/bytes.bin")) == Data([0, 1, 2, 255]))

        for name in ["../escape.txt", "a/b.txt", ".hidden", "..", ""] {
            let refused = try await page.hybridCall("files.save", ["name": .string(name), "data": "x"])
            #expect(refused["error"]?["code"] == "INVALID_MESSAGE", "\(name): \(refused)")
        }
        let badBase64 = try await page.hybridCall("files.save", ["name": "x.bin", "data": "not base64!", "encoding": "base64"])
        #expect(badBase64["error"]?["message"] == "files.save: data is not valid base64")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/files").sorted() == ["bytes.bin", "note.txt"],
                "nothing else, not even a temporary file, was left")
        await fixture.close()
    }

    @Test func withoutAConfiguredChoiceHeadlessChoosingIsCancelled() async throws {
        let fixture = try await ModuleFixture([.files])
        let page = try await fixture.openApp()
        let cancelled = try await page.hybridCall("files.choose")
        #expect(cancelled["error"]?["code"] == "CANCELLED")
        await fixture.close()
    }
}
