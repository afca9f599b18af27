import Foundation
import HybridShellTestSupport
import Testing
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit

/// Issue 31 item 7: on a nearly full disk `package install` failed with "disk full" after `current`
/// already named the new version. Every step of the commit fails in turn on a fake file system:
/// the install either throws with the old version active, or succeeds with the new one.
@Suite struct InstallCommitTests {
    /// An app directory in memory whose `failAt`-th operation fails with ENOSPC.
    final class FakeAppDirectory: StoreFileSystem {
        var links: [String: String]
        var files: [String: Data] = [:]
        var operations = 0
        let failAt: Int?

        init(links: [String: String], failAt: Int?) {
            self.links = links
            self.failAt = failAt
        }

        func step() throws(PackageError) {
            defer { operations += 1 }
            if operations == failAt { throw StoreFiles.error("fake", ENOSPC) }
        }

        func write(_ data: Data, to name: String) throws(PackageError) { try step(); files[name] = data }
        func makeLink(_ name: String, to target: String) throws(PackageError) { try step(); links[name] = target }
        func rename(_ name: String, to newName: String) throws(PackageError) {
            try step()
            if let link = links.removeValue(forKey: name) { links[newName] = link }
            else if let file = files.removeValue(forKey: name) { files[newName] = file }
            else { throw .io(path: name, reason: "no such file") }
        }
        func remove(_ name: String) { links[name] = nil; files[name] = nil }
        func syncDirectory() {}
    }

    @Test func theSwitchComesAfterEveryWriteThatAllocates() {
        let commit = InstallCommit(sequence: 3, current: "versions/2", previous: "versions/1")
        let allocating = commit.steps.indices.filter {
            switch commit.steps[$0] { case .writeState, .makeLink: true; default: false }
        }
        #expect(allocating.allSatisfy { $0 < commit.switchIndex })
        #expect(commit.steps[commit.switchIndex] == .rename("current.new", to: "current"))
        #expect(commit.steps.last == .removeVersion("versions/1"))
    }

    @Test(arguments: [(String?.none, String?.none), ("versions/2", nil), ("versions/2", "versions/1")])
    func aFailureAtAnyStepLeavesTheOldVersionOrSucceeds(current: String?, previous: String?) throws {
        let commit = InstallCommit(sequence: 3, current: current, previous: previous)
        var initial = [String: String]()
        initial["current"] = current
        initial["previous"] = previous
        var sawFailure = false, sawLateFailureSucceed = false
        for failAt in 0...commit.steps.count {
            let disk = FakeAppDirectory(links: initial, failAt: failAt)
            do {
                try commit.run(on: disk)
                #expect(disk.links["current"] == "versions/3", "step \(failAt) failed, yet the install reported success without switching")
                if failAt < commit.steps.count && failAt > commit.switchIndex { sawLateFailureSucceed = true }
            } catch {
                sawFailure = true
                #expect(error.description.hasPrefix("disk full"))
                #expect(disk.links["current"] == current, "step \(failAt): failed after switching to \(disk.links["current"] ?? "nothing")")
                #expect(disk.links["current.new"] == nil && disk.links["previous.new"] == nil && disk.files.isEmpty, "step \(failAt) left \(disk.links) \(disk.files.keys)")
            }
        }
        #expect(sawFailure && sawLateFailureSucceed)
        // Without failures: the state says 3, previous names the replaced version.
        let clean = FakeAppDirectory(links: initial, failAt: nil)
        try commit.run(on: clean)
        #expect(clean.links["previous"] == (current ?? previous))
        #expect(try JSONDecoder().decode(StoreState.self, from: clean.files["state.json"] ?? Data()).trustedSequence == 3)
    }

    /// The same on a real, small tmpfs: packages of more and more small files (each takes a whole
    /// page) until one fills the disk exactly where the old code switched and then failed.
    @Test func onANearlyFullDiskAnInstallFailsWithTheOldVersionOrSucceeds() throws {
        let f = try PackageFixtures()
        var outcomes = [String: Int]()
        for count in 170..<190 {
            guard let (store, disk) = try Self.storeOnSmallDisk(f) else { return }
            defer { umount(disk) }
            try store.install(file: f.pack(try f.site("v1", PackageFixtures.v1), "v1.zip", sequence: 1))
            var files = ["index.html": "<h1>many</h1>"]
            for i in 0..<count { files["f/\(i).txt"] = "x" }
            let many = try f.pack(try f.site("many", files), "many.zip", sequence: 2)
            do {
                try store.install(file: many)
                let active = try #require(store.installed("demo"))
                #expect(active.sequence == 2 && treeVerifies(active), "\(count) files")
                outcomes["installed", default: 0] += 1
            } catch {
                let active = try #require(store.installed("demo"))
                #expect(active.sequence == 1 && treeVerifies(active), "\(count) files: \(error), yet sequence \(active.sequence) is active")
                outcomes["\(error)".contains("disk full") ? "disk full" : "\(error)", default: 0] += 1
            }
        }
        print("nearly full disk: \(outcomes)")
        #expect(outcomes["installed"] ?? 0 > 0 && outcomes["disk full"] ?? 0 > 0, "the sweep must cross the point where the disk fills: \(outcomes)")
    }

    /// A store on a fresh 800 KiB tmpfs (nil, and a note, where mounting is not allowed).
    static func storeOnSmallDisk(_ f: PackageFixtures) throws -> (PackageStore, String)? {
        let disk = f.path("small").path
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        if mount("tmpfs", disk, "tmpfs", 0, "size=800k") != 0 {
            print("nearly-full-disk test skipped: no tmpfs can be mounted here (\(String(cString: strerror(errno))))")
            return nil
        }
        return (PackageStore(directory: URL(fileURLWithPath: disk + "/packages"), trust: f.trust), disk)
    }
}
