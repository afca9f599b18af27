import Dispatch
import GRDB
import Synchronization

/// Moves the storage file's WAL into the database off the engine thread: every `every` commits a
/// passive checkpoint runs on a second connection on a background queue (passive: it never
/// blocks the writer, and a writer never waits for its fsync). One checkpoint at a time; a commit
/// arriving while one runs is caught by the next. SQLite also checkpoints when the last
/// connection closes, so the WAL does not outlive the process's store.
final class StorageCheckpointer: Sendable {
    private let path: String
    private let every: Int
    private let state = Mutex<(commits: Int, running: Bool, connection: DatabaseQueue?)>((0, false, nil))
    private let queue = DispatchQueue(label: "hybridshell.storage.checkpoint", qos: .utility)

    init(path: String, every: Int) {
        self.path = path
        self.every = every
    }

    func committed() {
        let start = state.withLock { state -> Bool in
            state.commits += 1
            guard state.commits >= every, !state.running else { return false }
            state.commits = 0
            state.running = true
            return true
        }
        guard start else { return }
        queue.async { [self] in
            let connection = state.withLock { $0.connection } ?? open()
            // A failed checkpoint (the file busy) is retried after the next `every` commits.
            _ = try? connection?.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)") }
            state.withLock {
                $0.connection = connection
                $0.running = false
            }
        }
    }

    private func open() -> DatabaseQueue? {
        var configuration = Configuration()
        configuration.busyMode = .timeout(1)
        configuration.label = "hybridshell.storage.checkpoint"
        return try? DatabaseQueue(path: path, configuration: configuration)
    }
}
