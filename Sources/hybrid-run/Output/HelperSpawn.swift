import Foundation

/// Starts a helper program that must end with hybrid-run and only with it (Xvfb's reaper shell,
/// WebKitWebDriver): through `setpriv --pdeathsig TERM` when util-linux has it, so even a SIGKILL
/// of hybrid-run ends it; in a process group of its own, so a terminal's Ctrl-C reaches hybrid-run
/// alone and it stops the helper in order; with default signal handling and an empty mask (this
/// process blocks SIGINT/SIGTERM/SIGHUP for its signal thread, and children inherit masks); stdin
/// from /dev/null.
enum HelperSpawn {
    /// Why `posix_spawn` failed: its error number.
    struct Failure: Error { let number: Int32 }

    /// The helper's pid, or the `posix_spawn` error.
    static func start(_ arguments: [String], stdout: Int32, stderr: Int32) -> Result<pid_t, Failure> {
        let setpriv = "/usr/bin/setpriv"
        let command = access(setpriv, X_OK) == 0 ? [setpriv, "--pdeathsig", "TERM", "--"] + arguments : arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, command[0], &actions, &attributes, argv, environ)
        return result == 0 ? .success(pid) : .failure(Failure(number: result))
    }
}
