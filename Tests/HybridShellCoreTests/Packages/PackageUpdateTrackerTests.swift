import Foundation
import HybridShellTestSupport
import Testing
@testable import HybridShellCore

/// The update manager's decisions without a store, a network or a page.
@Suite struct PackageUpdateTrackerTests {
    static let v1 = PackageUpdateTracker.Installed(version: "1.0.0", sequence: 1)
    static let v2 = PackageUpdateTracker.Installed(version: "1.2.0", sequence: 2)

    /// An installed package of `demo` at sequence 2 (the `.installed` outcome carries one).
    static func installedV2() throws -> InstalledPackage {
        let f = try PackageFixtures()
        return try f.store().install(file: try f.pack(try f.site("v2", PackageFixtures.v2), "v2.zip", sequence: 2))
    }

    @Test func aSecondAskedCheckJoinsTheRunningOne() {
        var tracker = PackageUpdateTracker()
        let first = tracker.begin(), second = tracker.begin()
        #expect(first && !second, "checks never overlap")
        _ = tracker.finished(.success([]))
        let third = tracker.begin()
        #expect(third, "the next check starts once the first ended")
    }

    @Test func nothingNewIsOneCheckedEventAndNoUpdate() {
        var tracker = PackageUpdateTracker()
        _ = tracker.begin()
        let events = tracker.finished(.success([PackageUpdateResult(appID: "demo", outcome: .upToDate(sequence: 1))]))
        #expect(events == [.checked(available: [])])
        #expect(tracker.status(appID: "demo", pageSequence: 1, installed: Self.v1)
                == PackageUpdateStatus(hasUpdate: false, ready: false, checking: false, checked: true))
    }

    @Test func anUpdateIsAvailableWhenTheIndexIsVerifiedThenReadyWhenInstalled() throws {
        var tracker = PackageUpdateTracker()
        _ = tracker.begin()
        let verified = tracker.indexVerified(available: ["demo"])
        #expect(verified == [.checked(available: ["demo"])])
        let during = tracker.status(appID: "demo", pageSequence: 1, installed: Self.v1)
        #expect(during.hasUpdate && !during.ready && during.checking)
        let again = tracker.indexVerified(available: ["demo"])
        #expect(again.isEmpty, "the check is reported once")

        let installed = try Self.installedV2()
        let events = tracker.finished(.success([PackageUpdateResult(appID: "demo", outcome: .installed(installed, incremental: false))]))
        #expect(events == [.ready(appID: "demo", version: installed.version, sequence: 2)], "checked was already reported")
        let after = tracker.status(appID: "demo", pageSequence: 1, installed: Self.v2)
        #expect(after == PackageUpdateStatus(hasUpdate: true, ready: true, checking: false, checked: true, version: "1.2.0", sequence: 2))
        // A page that loaded the new version (apply, reload, next start) has nothing to apply.
        #expect(tracker.status(appID: "demo", pageSequence: 2, installed: Self.v2)
                == PackageUpdateStatus(hasUpdate: false, ready: false, checking: false, checked: true))
    }

    @Test func withoutTheStoresEventTheEndOfTheCheckReportsIt() throws {
        var tracker = PackageUpdateTracker()
        _ = tracker.begin()
        let installed = try Self.installedV2()
        let events = tracker.finished(.success([PackageUpdateResult(appID: "demo", outcome: .installed(installed, incremental: true)),
                                                PackageUpdateResult(appID: "other", outcome: .upToDate(sequence: 4))]))
        #expect(events == [.checked(available: ["demo"]), .ready(appID: "demo", version: installed.version, sequence: 2)])
        let late = tracker.indexVerified(available: ["demo"])
        #expect(late.isEmpty, "a late store event after the end changes nothing")
    }

    @Test func anIndexSignedByAnUnknownKeyFailsEveryAppAndInstallsNothing() {
        var tracker = PackageUpdateTracker()
        _ = tracker.begin()
        let events = tracker.finished(.failure(.untrustedKey(keyID: "abcd")))
        #expect(events == [.failed(appID: nil, reason: "the update index: signed by key abcd, which is not a trusted key")])
        let status = tracker.status(appID: "demo", pageSequence: 1, installed: Self.v1)
        #expect(!status.hasUpdate && !status.ready && status.failure == "the update index: signed by key abcd, which is not a trusted key")
        #expect(PackageUpdateTracker.concerns(events[0], appID: "any", pageSequence: 1))

        _ = tracker.begin()
        _ = tracker.finished(.success([]))
        #expect(tracker.status(appID: "demo", pageSequence: 1, installed: Self.v1).failure == nil, "a later good check clears it")
    }

    @Test func aCutDownloadFailsItsAppWhichStaysOffered() {
        var tracker = PackageUpdateTracker()
        _ = tracker.begin()
        _ = tracker.indexVerified(available: ["demo"])
        let cut = PackageError.download(url: "http://127.0.0.1/v2.zip", reason: "the connection closed after 1000 of 2000 bytes")
        let events = tracker.finished(.success([PackageUpdateResult(appID: "demo", outcome: .failed(cut))]))
        #expect(events == [.failed(appID: "demo", reason: cut.description)])
        let status = tracker.status(appID: "demo", pageSequence: 1, installed: Self.v1)
        #expect(status.hasUpdate && !status.ready && status.failure == cut.description, "the next check tries again")
        #expect(!PackageUpdateTracker.concerns(events[0], appID: "other", pageSequence: 1))
    }

    @Test(arguments: [
        (PackageUpdateEvent.ready(appID: "demo", version: "2", sequence: 2), "demo", Int64(1), true),
        (.ready(appID: "demo", version: "2", sequence: 2), "demo", 2, false),
        (.ready(appID: "demo", version: "2", sequence: 2), "shop", 1, false),
        (.failed(appID: "demo", reason: "x"), "demo", 1, true),
        (.failed(appID: nil, reason: "x"), "shop", 1, true),
        (.checked(available: []), "demo", 1, true),
        (.applied(appID: "demo", sequence: 2), "demo", 1, false),
    ])
    func whichPagesAnEventConcerns(event: PackageUpdateEvent, app: String, sequence: Int64, expected: Bool) {
        #expect(PackageUpdateTracker.concerns(event, appID: app, pageSequence: sequence) == expected)
    }

    @Test func eventsHaveOneLineDescriptions() {
        #expect(PackageUpdateEvent.checked(available: ["a", "b"]).description == "update.checked available=a,b")
        #expect(PackageUpdateEvent.ready(appID: "demo", version: "1.2.0", sequence: 2).description == "update.ready demo 1.2.0 sequence=2")
        #expect(PackageUpdateEvent.failed(appID: nil, reason: "r").description == "update.failed - r")
    }
}
