import Foundation
import Glibc
import Testing
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit
@testable import hybrid_run

/// Issue 12, item 12: the control directory is private whichever of pid file and socket makes it.
@Suite(.serialized)
@EngineActor
struct ControlDirectoryTests {
    private func mode(_ path: String) -> mode_t? {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o7777 : nil
    }

    @Test func thePidFileMakesMissingDirectoriesPrivateWhateverTheUmask() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("pid-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        let previous = umask(0o022)
        defer { umask(previous) }
        try PidFile(path: base + "/run/app/kiosk.pid").write()
        #expect(mode(base + "/run/app") == 0o700)
        #expect(mode(base + "/run") == 0o700)
    }

    @Test func aControlDirectoryOthersCanWriteIsRefusedAStickyOneIsNot() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("ctl-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        #expect(mkdir(base, 0o700) == 0 && chmod(base, 0o777) == 0)
        #expect(throws: ShellError.self) { _ = try UnixSocketListener(path: base + "/ctl.sock") { _, reply in reply("{}") } }
        #expect(chmod(base, 0o1777) == 0)
        let listener = try UnixSocketListener(path: base + "/ctl.sock") { _, reply in reply("{}") }
        listener.close()
    }
}
