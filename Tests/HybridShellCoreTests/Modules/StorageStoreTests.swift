import Foundation
import GRDB
@testable import HybridShellCore
import Testing

@Suite("Storage store: per-origin keys in SQLite, quota, persistence, corrupt and locked files")
struct StorageStoreTests {
    func temporaryFile() -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hybridshell-storage-\(UUID().uuidString)")
        return directory.appendingPathComponent(StorageModule.fileName).path
    }

    @Test func valuesSurviveReopeningAndOriginsAreSeparate() throws {
        let path = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        do {
            let store = try StorageStore(path: path, quota: 1 << 20)
            try store.set(origin: "https://a.example", key: "k", value: #"{"n":1}"#)
            try store.set(origin: "https://b.example", key: "k", value: #""b""#)
        }
        let reopened = try StorageStore(path: path, quota: 1 << 20)
        #expect(try reopened.get(origin: "https://a.example", key: "k") == #"{"n":1}"#)
        #expect(try reopened.get(origin: "https://b.example", key: "k") == #""b""#)
        #expect(try reopened.get(origin: "https://c.example", key: "k") == nil)
        try reopened.clear(origin: "https://a.example")
        #expect(try reopened.get(origin: "https://a.example", key: "k") == nil)
        #expect(try reopened.info(origin: "https://b.example").keys == ["k"])
    }

    @Test func theQuotaCountsKeysAndValuesPerOrigin() throws {
        let store = try StorageStore(path: nil, quota: 100)
        try store.set(origin: "o", key: "a", value: String(repeating: "x", count: 49))   // 50 bytes
        try store.set(origin: "o", key: "b", value: String(repeating: "x", count: 49))   // 100 bytes: at the limit
        let error = #expect(throws: BridgeError.self) { try store.set(origin: "o", key: "c", value: "1") }
        #expect(error?.details?["reason"] == "quota")
        #expect(error?.message.hasPrefix("exceed storage max size") == true)
        try store.set(origin: "other", key: "c", value: "1")                              // another origin's quota
        try store.set(origin: "o", key: "a", value: "1")                                   // shrinking is always fine
        #expect(try store.info(origin: "o").bytes == 52)
        try store.remove(origin: "o", key: "b")
        #expect(try store.info(origin: "o").bytes == 2)
        #expect(try store.get(origin: "o", key: "c") == nil, "the refused write left nothing behind")
    }

    @Test func aCorruptFileIsAPreciseError() throws {
        let path = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(String(repeating: "this is not a database ", count: 200).utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: BridgeError.self) { try StorageStore(path: path, quota: 1 << 20) }
        #expect(error?.details?["reason"] == "corrupt")
        #expect(error?.message.contains(path) == true)
    }

    @Test func aFileLockedByAnotherWriterIsAPreciseError() throws {
        let path = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let store = try StorageStore(path: path, quota: 1 << 20)
        // Another connection (as another process would) holds the write lock.
        let other = try DatabaseQueue(path: path)
        try other.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN EXCLUSIVE")
            let error = #expect(throws: BridgeError.self) { try store.set(origin: "o", key: "k", value: "1") }
            #expect(error?.details?["reason"] == "locked")
            try db.execute(sql: "ROLLBACK")
        }
        try store.set(origin: "o", key: "k", value: "1")
        #expect(try store.get(origin: "o", key: "k") == "1")
    }
}
