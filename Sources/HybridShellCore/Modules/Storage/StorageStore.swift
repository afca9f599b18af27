import Foundation
import GRDB

/// The `storage` module's key-value store: one SQLite file (through GRDB) holding every origin's
/// keys, values as JSON text, and each origin's byte count for the quota. WAL journal: a write is
/// one transaction, so a `kill -9` at any moment leaves either the old or the new value, never a
/// half-written one. With no file (ephemeral runs) the store lives in memory and ends with the
/// process.
///
/// Durability: `synchronous = NORMAL` in WAL mode — a commit is written to the WAL (the OS has it:
/// it survives the process being killed) but not fsynced; the WAL is fsynced when it is
/// checkpointed into the database. A power loss can lose the last commits before a checkpoint,
/// never corrupt the file or leave half a transaction. Checkpoints (SQLite's automatic one would
/// fsync inside whichever `set` crossed 1000 WAL pages, a stall of milliseconds on a busy disk)
/// run instead on a background connection every ``checkpointInterval`` commits, so no call of
/// a page waits for the disk.
public final class StorageStore: Sendable {
    /// Longest key, in UTF-8 bytes.
    public static let maxKeyLength = 1024
    /// Largest single value (JSON text), in UTF-8 bytes (WeChat's limit).
    public static let maxValueLength = 1024 * 1024

    public let path: String?
    public let quota: Int
    private let queue: DatabaseQueue
    /// Commits between background checkpoints.
    static let checkpointInterval = 256
    private let checkpointer: StorageCheckpointer?

    /// Opens (creating if missing) the store at `path`, or an in-memory one. A file that is not a
    /// usable SQLite database, or that another process holds locked, is a precise error.
    public init(path: String?, quota: Int) throws(BridgeError) {
        self.path = path
        self.quota = quota
        var configuration = Configuration()
        // A second process writing the same file: wait a little, then report it locked.
        configuration.busyMode = .timeout(1)
        configuration.label = "hybridshell.storage"
        do {
            if let path {
                try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                        withIntermediateDirectories: true)
                queue = try DatabaseQueue(path: path, configuration: configuration)
                try queue.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA journal_mode = WAL")
                    try db.execute(sql: "PRAGMA synchronous = NORMAL")
                    try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
                }
                checkpointer = StorageCheckpointer(path: path, every: Self.checkpointInterval)
            } else {
                queue = try DatabaseQueue(configuration: configuration)
                checkpointer = nil
            }
            try queue.write { db in
                try db.execute(sql: """
                    CREATE TABLE IF NOT EXISTS storage_item (
                        origin TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, size INTEGER NOT NULL,
                        PRIMARY KEY (origin, key)) WITHOUT ROWID;
                    CREATE TABLE IF NOT EXISTS storage_usage (origin TEXT PRIMARY KEY NOT NULL, bytes INTEGER NOT NULL) WITHOUT ROWID;
                    """)
                // Catches a damaged file now rather than at the first read of the damaged page.
                if path != nil, let check = try String.fetchOne(db, sql: "PRAGMA quick_check(1)"), check != "ok" {
                    throw BridgeError(.handlerError, "the storage file \(path!) is corrupt (\(check))", details: ["reason": "corrupt"])
                }
            }
        } catch let error as BridgeError {
            throw error
        } catch {
            throw StorageStore.describe(error, path: path)
        }
    }

    public func set(origin: String, key: String, value: String) throws(BridgeError) {
        let size = key.utf8.count + value.utf8.count
        let quota = self.quota
        try run { db in
            // One statement for both sizes: a set is three statements in one transaction.
            let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT (SELECT size FROM storage_item WHERE origin = ?1 AND key = ?2),
                       (SELECT bytes FROM storage_usage WHERE origin = ?1)
                """), arguments: [origin, key])
            let old: Int = row?[0] ?? 0
            let used: Int = row?[1] ?? 0
            let total = used - old + size
            if total > quota, size > old {
                throw BridgeError(.handlerError, "exceed storage max size: \(origin) would use \(total) bytes; the quota is \(quota)",
                                  details: ["reason": "quota", "used": .number(Double(used)), "quota": .number(Double(quota))])
            }
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO storage_item (origin, key, value, size) VALUES (?, ?, ?, ?)")
                           .execute(arguments: [origin, key, value, size])
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO storage_usage (origin, bytes) VALUES (?, ?)").execute(arguments: [origin, total])
        }
    }

    public func get(origin: String, key: String) throws(BridgeError) -> String? {
        try read { db in try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM storage_item WHERE origin = ? AND key = ?"), arguments: [origin, key]) }
    }

    /// Whether the key existed.
    @discardableResult
    public func remove(origin: String, key: String) throws(BridgeError) -> Bool {
        try run { db in
            guard let old = try Int.fetchOne(db.cachedStatement(sql: "SELECT size FROM storage_item WHERE origin = ? AND key = ?"), arguments: [origin, key]) else { return false }
            try db.execute(sql: "DELETE FROM storage_item WHERE origin = ? AND key = ?", arguments: [origin, key])
            try db.execute(sql: "UPDATE storage_usage SET bytes = bytes - ? WHERE origin = ?", arguments: [old, origin])
            return true
        }
    }

    public func clear(origin: String) throws(BridgeError) {
        try run { db in
            try db.execute(sql: "DELETE FROM storage_item WHERE origin = ?", arguments: [origin])
            try db.execute(sql: "DELETE FROM storage_usage WHERE origin = ?", arguments: [origin])
        }
    }

    /// The origin's keys (sorted) and the bytes they use.
    public func info(origin: String) throws(BridgeError) -> (keys: [String], bytes: Int) {
        try read { db in
            let keys = try String.fetchAll(db.cachedStatement(sql: "SELECT key FROM storage_item WHERE origin = ? ORDER BY key"), arguments: [origin])
            let bytes = try Int.fetchOne(db.cachedStatement(sql: "SELECT bytes FROM storage_usage WHERE origin = ?"), arguments: [origin]) ?? 0
            return (keys, bytes)
        }
    }

    /// One immediate transaction: all of `body` or nothing.
    private func run<T>(_ body: (Database) throws -> T) throws(BridgeError) -> T {
        do {
            let result = try queue.inDatabase { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                return result!
            }
            checkpointer?.committed()
            return result
        } catch let error as BridgeError {
            throw error
        } catch {
            throw StorageStore.describe(error, path: path)
        }
    }

    private func read<T>(_ body: (Database) throws -> T) throws(BridgeError) -> T {
        do {
            // Each read is one statement, atomic on its own: no transaction around it (GRDB's
            // `read` adds statements of its own, which doubled the cost of a get).
            return try queue.inDatabase(body)
        } catch {
            throw StorageStore.describe(error, path: path)
        }
    }

    /// SQLite's failures in the words a page (and its developer) can act on.
    static func describe(_ error: any Error, path: String?) -> BridgeError {
        let file = path ?? "(in memory)"
        guard let database = error as? DatabaseError else {
            return BridgeError(.handlerError, "the storage file \(file) cannot be used: \(error)", details: ["reason": "io"])
        }
        switch database.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return BridgeError(.handlerError, "the storage file \(file) is corrupt (not a SQLite database); move it away to start empty",
                               details: ["reason": "corrupt"])
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return BridgeError(.handlerError, "the storage file \(file) is locked by another process", details: ["reason": "locked"])
        case .SQLITE_FULL:
            return BridgeError(.handlerError, "the disk holding \(file) is full", details: ["reason": "full"])
        case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM:
            return BridgeError(.handlerError, "the storage file \(file) cannot be opened for writing: \(database.message ?? "\(database.resultCode)")",
                               details: ["reason": "io"])
        default:
            return BridgeError(.handlerError, "storage failed on \(file): \(database.message ?? "\(database.resultCode)")", details: ["reason": "io"])
        }
    }
}
