import Foundation
import HybridShell
import Synchronization

/// Runs a built executable of this package (`hybrid-run`, `hybrid-bench`) as a user would, with a
/// deadline, and collects its output. The test process runs under Xvfb, so the child inherits DISPLAY.
struct CommandLineRun: Sendable {
    let status: Int32
    let stdout: String
    let stderr: String
    /// WebKit processes the command had started (seen while it ran).
    let webKitChildren: [pid_t]

    var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }

    static var buildDirectory: URL {
        URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent()
    }

    /// A command while it runs: its pid and its stdout lines as they arrive.
    struct Running: Sendable {
        let pid: pid_t
        let lines: AsyncStream<String>

        /// Waits for the first stdout line containing `text` (or the end of output).
        func waitForLine(containing text: String) async -> String? {
            for await line in lines where line.contains(text) { return line }
            return nil
        }

        /// The command's one web process. Runs that kill it pass `--pool 0`: a warm pool view has a
        /// web process of its own, and killing one mid-launch aborts the UI process (see RunCommandLineTests).
        var webProcess: pid_t? {
            ProcessTree.children(of: pid).first { ProcessTree.command($0).hasPrefix("WebKitWebProces") }
        }
    }

    /// `executable` is one of this package's (in the build directory) or an absolute path.
    static func run(_ arguments: [String], executable: String = "hybrid-run", environment: [String: String]? = nil,
                    deadline: Duration = .seconds(60),
                    whileRunning: (@Sendable (Running) async -> Void)? = nil) async throws -> CommandLineRun {
        let out = try CloseOnExecPipe(), err = try CloseOnExecPipe()
        let path = executable.hasPrefix("/") ? executable : buildDirectory.appendingPathComponent(executable).path
        // env -C sets the working directory; posix_spawn has no portable chdir action.
        let pid = try ChildProcess.spawn("/usr/bin/env", ["-C", Fixtures.repository.path, path] + arguments,
                                         environment: environment ?? ProcessInfo.processInfo.environment,
                                         stdout: out.writing.fileDescriptor, stderr: err.writing.fileDescriptor)
        try out.writing.close()
        try err.writing.close()
        async let exitStatus = ChildProcess.wait(for: pid)
        let lines = AsyncStream<String>.makeStream()
        async let stdoutData = readToEnd(out.reading, lines: lines.continuation)
        async let stderrData = readToEnd(err.reading, lines: nil)
        // There is no event for "another process started a child"; watch /proc while it runs.
        let watcher = Task.detached { () -> [pid_t] in
            var seen = Set<pid_t>()
            while !Task.isCancelled {
                seen.formUnion(ProcessTree.children(of: pid).filter { ProcessTree.command($0).hasPrefix("WebKit") })
                try? await Task.sleep(for: .milliseconds(20))
            }
            return seen.sorted()
        }
        let killer = Task.detached {
            try? await Task.sleep(for: deadline)
            if !Task.isCancelled { kill(pid, SIGKILL) }
        }
        await whileRunning?(Running(pid: pid, lines: lines.stream))
        let status = await exitStatus
        killer.cancel()
        watcher.cancel()
        let children = await watcher.value
        return CommandLineRun(status: status, stdout: String(decoding: await stdoutData, as: UTF8.self),
                              stderr: String(decoding: await stderrData, as: UTF8.self), webKitChildren: children)
    }
}

/// Spawns and reaps child processes without Foundation's `Process`, whose exit detection depends on
/// SIGCHLD and missed exits here now and then (GLib and WebKit also manage children in this process).
/// A blocking `waitpid` for the one pid, on its own thread, cannot miss.
enum ChildProcess {
    static func spawn(_ program: String, _ arguments: [String], environment: [String: String],
                      stdout: Int32, stderr: Int32) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A clean signal state: the spawning thread may be a libdispatch worker with signals blocked.
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .ENOENT) }
        return pid
    }

    /// The exit status (or 128 + signal number, as a shell reports it).
    static func wait(for pid: pid_t) async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
                let signal = status & 0x7F
                continuation.resume(returning: signal == 0 ? (status >> 8) & 0xFF : 128 + signal)
            }.start()
        }
    }
}

/// A pipe whose ends are closed on exec. `Foundation.Pipe`'s are not, so every process spawned
/// later — WebKit's web and network processes in this very test process included — would inherit
/// the write end and the reader would never see end-of-file.
struct CloseOnExecPipe {
    let reading: FileHandle
    let writing: FileHandle

    init() throws {
        var fds: [Int32] = [0, 0]
        // A socket pair stands in for pipe2(O_CLOEXEC), which Glibc's Swift module does not show.
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE)
        }
        reading = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true)
        writing = FileHandle(fileDescriptor: fds[1], closeOnDealloc: true)
    }
}

/// Reads a pipe to its end on a thread of its own (a blocking read inside a task would pin one of
/// the few cooperative threads and stall every other test), passing on complete lines as they come.
private func readToEnd(_ handle: FileHandle, lines: AsyncStream<String>.Continuation?) async -> Data {
    await withCheckedContinuation { continuation in
        Thread {
            var all = Data()
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                all.append(chunk)
                guard let lines else { continue }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    lines.yield(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                }
            }
            lines?.finish()
            continuation.resume(returning: all)
        }.start()
    }
}

/// Reads the process table from /proc.
enum ProcessTree {
    static func children(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid_t($0) }.filter { parentOf($0) == parent }
    }

    static func parentOf(_ pid: pid_t) -> pid_t? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 2 ? pid_t(fields[1]) : nil
    }

    static func command(_ pid: pid_t) -> String {
        ((try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func isAlive(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        return !stat.contains(") Z ")  // a zombie is gone for our purposes
    }

    /// Waits until none of `pids` is alive and returns the survivors after `deadline`. Polls /proc:
    /// there is no event for the exit of a process that is not our child.
    static func waitUntilGone(_ pids: [pid_t], within deadline: Duration = .seconds(15)) async -> [pid_t] {
        let end = ContinuousClock.now + deadline
        while ContinuousClock.now < end {
            if !pids.contains(where: isAlive) { return [] }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return pids.filter(isAlive)
    }
}
