import Foundation
import HybridShellTestSupport
import Testing
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit

/// `hybrid-run package …` as a user runs it: outputs, files, and exit codes 0 / 2 / 4 / 6.
@Suite struct PackageCommandLineTests {
    /// Outputs go into directories that do not exist yet (a README example met this), and the
    /// private key is created 0600, never chmod-ed after the bytes are there.
    @Test func outputsCreateTheirDirectory() async throws {
        let f = try PackageFixtures()
        let key = f.path("keys/new/rel").path
        let keygen = try await CommandLineRun.run(["package", "keygen", "--output", key])
        #expect(keygen.status == 0, "\(keygen.stderr)")
        var info = stat()
        #expect(stat(key + ".key", &info) == 0 && info.st_mode & 0o777 == 0o600)
        let site = try f.site("site", PackageFixtures.v1).path
        let output = f.path("out/nested/d1.zip").path
        let pack = try await CommandLineRun.run(["package", "pack", site, "--app-id", "demo", "--app-version", "1.0.0", "--sequence", "1",
                                                 "--key", key + ".key", "--output", output])
        #expect(pack.status == 0 && FileManager.default.fileExists(atPath: output), "\(pack.stderr)")
    }

    @Test func producerAndStoreCommandsWorkEndToEnd() async throws {
        let f = try PackageFixtures()
        let key = f.path("rel").path
        let keygen = try await CommandLineRun.run(["package", "keygen", "--output", key])
        #expect(keygen.status == 0, "\(keygen.stderr)")
        var info = stat()
        #expect(stat(key + ".key", &info) == 0 && info.st_mode & 0o777 == 0o600)
        let again = try await CommandLineRun.run(["package", "keygen", "--output", key])
        #expect(again.status == 2 && again.stderr.contains("already exists"))

        let site = try f.site("site", PackageFixtures.v1).path
        let pack = try await CommandLineRun.run(["package", "pack", site, "--app-id", "demo", "--app-version", "1.0.0", "--sequence", "1",
                                                 "--key", key + ".key", "--output", f.path("d1.zip").path])
        #expect(pack.status == 0, "\(pack.stderr)")
        let verify = try await CommandLineRun.run(["package", "verify", f.path("d1.zip").path, "--trust", key + ".pub"])
        #expect(verify.status == 0 && verify.stdout.hasPrefix("OK demo 1.0.0 sequence=1"), "\(verify.stderr)")
        let data = f.path("data").path
        let install = try await CommandLineRun.run(["package", "install", f.path("d1.zip").path, "--data-dir", data,
                                                    "--trust", key + ".pub", "--print-events"])
        #expect(install.status == 0 && install.stdoutLines.contains("package.installed demo 1.0.0 sequence=1"), "\(install.stderr)")
        let list = try await CommandLineRun.run(["package", "list", "--data-dir", data])
        #expect(list.stdout.hasPrefix("demo 1.0.0 sequence=1 root="))

        // Refusals exit 6 and name the reason; the installed version stays.
        let replay = try await CommandLineRun.run(["package", "install", f.path("d1.zip").path, "--data-dir", data, "--trust", key + ".pub"])
        #expect(replay.status == 6 && replay.stderr.contains("already installed"))
        try f.key.publicKey.fileText.write(toFile: f.path("other.pub").path, atomically: true, encoding: .utf8)
        let untrusted = try await CommandLineRun.run(["package", "verify", f.path("d1.zip").path, "--trust", f.path("other.pub").path])
        #expect(untrusted.status == 6 && untrusted.stderr.contains("not a trusted key"))
        let rollback = try await CommandLineRun.run(["package", "rollback", "demo", "--data-dir", data])
        #expect(rollback.status == 2 && rollback.stderr.contains("no previous version"))
        // A URL: downloaded, then verified and installed like a file.
        let server = try await FixtureServer.start()
        defer { server.stop() }
        let zip = try Data(contentsOf: f.path("d1.zip"))
        server.route("/d1.zip") { _ in .init(status: 200, headers: ["Content-Type": "application/zip"], body: zip) }
        let fresh = f.path("fresh").path
        let byURL = try await CommandLineRun.run(["package", "install", server.url("d1.zip"), "--data-dir", fresh, "--trust", key + ".pub"])
        #expect(byURL.status == 0 && byURL.stdout.hasPrefix("demo 1.0.0 sequence=1"), "\(byURL.stderr)")
        // Usage errors exit 4.
        let usage = try await CommandLineRun.run(["package", "pack", site, "--app-id", "demo"])
        #expect(usage.status == 4)
        let noTrust = try await CommandLineRun.run(["package", "install", f.path("d1.zip").path, "--data-dir", data])
        #expect(noTrust.status == 4 && noTrust.stderr.contains("no trusted key"))
    }
}
