import Foundation
import Testing

/// A test that crashes the test process on purpose, once: only when `HYBRIDSHELL_CRASH_PROBE`
/// names a file that does not exist yet (it creates it, then crashes; the rerun finds it and
/// passes). `make test` runs it through `Tests/swift-test.sh` and expects that pass to fail, so an
/// intermittent crash can never land green again (the harness once reported `CRASHED ONCE`, exit 0).
@Suite("Crash probe: the test harness fails a pass that crashed once")
struct CrashProbeTests {
    static let marker = ProcessInfo.processInfo.environment["HYBRIDSHELL_CRASH_PROBE"]

    @Test(.enabled(if: marker != nil))
    func crashesOnceOnPurpose() throws {
        let marker = try #require(Self.marker)
        guard !FileManager.default.fileExists(atPath: marker) else { return }
        FileManager.default.createFile(atPath: marker, contents: nil)
        fatalError("crash probe: this process crashed on purpose")
    }
}
