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
        #expect(choice["tempFilePaths"] == [.string(chosen)])
        #expect((choice["tempFiles"]?[0]?["size"]?.doubleValue ?? 0) > 0)

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
