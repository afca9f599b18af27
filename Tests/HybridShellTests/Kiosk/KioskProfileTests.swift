import Foundation
import HybridShell
@testable import hybrid_run
import Testing

@Suite("Kiosk profile files")
struct KioskProfileTests {
    @Test func theExampleProfileReadsEveryKey() throws {
        let profile = try KioskProfile.load(path: Fixtures.repository.path + "/pages/fixtures/kiosk/kiosk.toml")
        #expect(profile.home == Fixtures.repository.path + "/pages/fixtures/kiosk/index.html")
        #expect(profile.background == KioskColor(red: 16 / 255, green: 32 / 255, blue: 48 / 255))
        #expect(profile.cursor == .hidden)
        #expect(profile.allow == ["file:///*"])
        #expect(profile.heartbeatInterval == .seconds(1))
        #expect(profile.heartbeatTimeout == .seconds(3))
        #expect(profile.loadRetry == [.seconds(2), .seconds(5), .seconds(15), .seconds(60)])
        #expect(profile.permissions.count == 1)
        #expect(profile.idleReset == nil)
        #expect(profile.shell.defaults.userAgent == .appending("LobbyKiosk/1.0"))
    }

    @Test func relativePathsAreRelativeToTheProfile() throws {
        let profile = try parse("""
            home = "app/"
            data_dir = "state"
            [kiosk]
            control_socket = "run/ctl.sock"
            pid_file = "/run/kiosk.pid"
            hide_cursor = 5
            idle_reset = 90
            """, allowMissingHome: true)
        #expect(profile.home == "/srv/kiosk/app")
        #expect(profile.shell.storage == .persistent(directory: "/srv/kiosk/state"))
        #expect(profile.controlSocket == "/srv/kiosk/run/ctl.sock")
        #expect(profile.pidFile == "/run/kiosk.pid")
        #expect(profile.cursor == .hiddenWhenIdle(.seconds(5)))
        #expect(profile.idleReset == .seconds(90))
    }

    @Test(arguments: [
        ("home = \"https://a.example/\"\n[kiosk]\nfullscren = true\n", "kiosk.toml:3: kiosk.fullscren: unknown key"),
        ("home = \"https://a.example/\"\n[kiosk]\nfullscreen = \"yes\"\n", "kiosk.toml:3: kiosk.fullscreen: expected true or false, got a string"),
        ("home = \"https://a.example/\"\n[kiosk]\nbackground = \"black\"\n", "kiosk.toml:3: kiosk.background: a colour is #rrggbb or #rgb"),
        ("home = \"https://a.example/\"\n[kiosk]\nhide_cursor = \"sometimes\"\n", "kiosk.toml:3: kiosk.hide_cursor: expected \"always\", \"never\" or a number of idle seconds"),
        ("home = \"https://a.example/\"\n[kiosk]\nallow_shortcuts = [\"reload\", \"teleport\"]\n", "kiosk.toml:3: kiosk.allow_shortcuts: unknown shortcut \"teleport\""),
        ("home = \"https://a.example/\"\n[kiosk]\nallow = [\"app.example/*\"]\n", "kiosk.toml:3: kiosk.allow: allow-list pattern \"app.example/*\" needs a scheme"),
        ("home = \"https://a.example/\"\n[kiosk.permissions]\n\"https://a.example\" = [\"telepathy\"]\n", "kiosk.toml:3: kiosk.permissions.https://a.example: unknown permission \"telepathy\""),
        ("home = \"https://a.example/\"\n[kiosk]\nheartbeat_timeout = 0\n", "kiosk.toml:3: kiosk.heartbeat_timeout: must be between 0.1 and 60.0 seconds"),
        ("home = \"https://a.example/\"\n[kiosk]\nload_retry = []\n", "kiosk.toml:3: kiosk.load_retry: expected a non-empty array of seconds"),
        ("home = \"https://a.example/\"\n[kiosk]\nmemory_limit_mb = -5\n", "kiosk.toml:3: kiosk.memory_limit_mb: must be between 0 and 1048576"),
        ("[kiosk]\nzoom = false\n", "kiosk.toml: a kiosk profile needs home"),
        ("home = \"ftp://a.example/\"\n", "kiosk.toml:1: home: invalid URL \"ftp://a.example/\": unsupported scheme 'ftp'"),
        ("home = \"https://a.example/\"\nfullscreen = true\n", "kiosk.toml:2: fullscreen: unknown key"),
        ("home = \"https://a.example/\"\n[kiosk\n", "kiosk.toml:2:"),
    ])
    func malformedProfilesNameTheKeyAndLine(text: String, message: String) {
        #expect {
            _ = try parse(text)
        } throws: { error in
            let description = (error as? ShellError)?.description ?? "\(error)"
            return description.hasPrefix(message)
        }
    }

    func parse(_ text: String, allowMissingHome: Bool = false) throws -> KioskProfile {
        let document = try ConfigDocument.parse(text, file: "kiosk.toml", format: .toml)
        return try KioskProfile.read(ConfigReader(document), relativeTo: "/srv/kiosk", checkHome: !allowMissingHome)
    }
}

@Suite("systemd notifications")
struct SystemdNotifierTests {
    @Test func nothingIsSentWithoutNotifySocket() {
        let notifier = SystemdNotifier(environment: [:])
        #expect(notifier.socketPath == nil)
        #expect(notifier.watchdogPing == nil)
        #expect(!notifier.notify("READY=1"))
    }

    @Test func watchdogPingsAtHalfTheIntervalForThisProcessOnly() {
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "10000000"], pid: 42).watchdogPing == .seconds(5))
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "42"], pid: 42).watchdogPing == .seconds(5))
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "7"], pid: 42).watchdogPing == nil)
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "zero"], pid: 42).watchdogPing == nil)
    }

    @Test func readyArrivesAsADatagram() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString).sock").path
        defer { unlink(path) }
        let receiver = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        #expect(receiver >= 0)
        defer { close(receiver) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(receiver, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": path]).notify("READY=1\nSTATUS=showing home"))
        var buffer = [UInt8](repeating: 0, count: 256)
        // The datagram is already queued: a non-blocking read either has it or the test fails.
        let count = recv(receiver, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        #expect(count > 0)
        #expect(String(decoding: buffer.prefix(max(0, count)), as: UTF8.self) == "READY=1\nSTATUS=showing home")
    }
}
