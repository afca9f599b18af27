internal import CGLib
import Synchronization

/// The serial executor of ``EngineActor``: it runs Swift jobs inside GLib's default main context,
/// on whichever thread iterates that context (the main thread in `hybrid-run`, a dedicated thread
/// under `swift test`).
///
/// One persistent `GSource` is attached to the default context. Enqueuing a job appends it to a
/// locked queue and makes the source ready with `g_source_set_ready_time(source, 0)`, which wakes a
/// sleeping loop from any thread. The loop then drains the queue in one dispatch. Nothing polls.
final class GLibExecutor: SerialExecutor, @unchecked Sendable {
    static let shared = GLibExecutor()

    /// Queued jobs, each with whether it came through ``GLibTaskExecutor`` (see `runJobs`).
    private let queue = Mutex<[(job: UnownedJob, preferred: Bool)]>([])
    // Written once in init, read from any thread afterwards.
    private let source: UnsafeMutablePointer<GSource>

    private init() {
        source = g_source_new(&jobSourceFuncs, guint(MemoryLayout<GSource>.size))
        g_source_set_priority(source, G_PRIORITY_DEFAULT)
        g_source_set_can_recurse(source, 0)
        g_source_set_name(source, "HybridShell jobs")
        g_source_set_ready_time(source, -1)
        g_source_attach(source, g_main_context_default())
    }

    func enqueue(_ job: consuming ExecutorJob) {
        enqueue(UnownedJob(job), preferred: false)
    }

    /// Queues a job; `preferred` when it belongs to a task whose executor preference is the loop
    /// (it came through ``GLibTaskExecutor``).
    func enqueue(_ job: UnownedJob, preferred: Bool) {
        queue.withLock { $0.append((job, preferred)) }
        // A job queued on the loop thread while jobs or a callback run there is taken before that
        // dispatch ends (see `runJobs`): making the source ready would cost an eventfd write and
        // a main-loop iteration for nothing.
        if pthread_self() == loopThread.load(ordering: .relaxed), isDraining || inCallback { return }
        MainLoop.ensureRunning()
        g_source_set_ready_time(source, 0)
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// C callbacks from GLib (signals, async completions) run on the loop thread outside any Swift
    /// job; `EngineActor.assumeIsolated` relies on this check to accept them.
    func checkIsolated() {
        precondition(isLoopThread, "HybridShell: engine work must run on the GLib main-loop thread")
    }

    func isIsolatingCurrentContext() -> Bool? {
        isLoopThread
    }

    var isLoopThread: Bool {
        g_main_context_is_owner(g_main_context_default()) != 0
    }

    /// Runs every job queued so far. Jobs enqueued while draining make the source ready again and
    /// run in the next dispatch, so one burst of work cannot starve GTK's own event sources.
    // Touched only on the loop thread, inside and around `drain()`.
    private nonisolated(unsafe) var isDraining = false
    private nonisolated(unsafe) var afterDrain: [@EngineActor () -> Void] = []
    private nonisolated(unsafe) var inCallback = false
    /// The thread iterating the default context (`prepare` records it): `enqueue` compares it with
    /// its own thread instead of asking GLib, which takes the context's lock.
    fileprivate let loopThread = Atomic<pthread_t>(0)

    /// Runs `body` once the jobs of the current dispatch have run, in that same dispatch (saving
    /// the main-loop turn a new job would wait for). False, and nothing scheduled, outside a
    /// dispatch: in a GLib callback, say.
    @EngineActor
    func runAfterCurrentJobs(_ body: @escaping @EngineActor () -> Void) -> Bool {
        guard isDraining else { return false }
        afterDrain.append(body)
        return true
    }

    /// How many main-loop iterations have begun: GLib calls the job source's `prepare` once per
    /// iteration of the default context. Code that must tell "still the same turn" from "a later
    /// turn" compares two readings, instead of scheduling a job to mark the turn's end (a job
    /// costs an extra main-loop iteration, once per bridge call when calls arrive back to back).
    @EngineActor
    var turn: UInt64 { turnCount }
    // Touched only on the loop thread (in `prepare`, and through `turn`).
    fileprivate nonisolated(unsafe) var turnCount: UInt64 = 0

    fileprivate func drain() {
        g_source_set_ready_time(source, -1)
        runJobs()
    }

    /// Runs a GLib callback's `body` (a WebKit completion), then, in the same dispatch, the jobs it
    /// queued (the Tasks it started, the flush of replies it pushed) instead of one main-loop
    /// iteration later. A continuation it resumed is not among them: Swift resumes those on its
    /// global pool first, which then queues the job here from another thread.
    func runCallback(_ body: () -> Void) {
        guard !isDraining, !inCallback else { return body() }
        inCallback = true
        body()
        inCallback = false
        if queue.withLock({ !$0.isEmpty }) { runJobs() }
    }

    /// Runs the queued jobs; those they queue wait for the next dispatch, so a task that keeps
    /// hopping (or work that reschedules itself) cannot starve GTK's own event sources.
    private func runJobs() {
        isDraining = true
        let jobs = queue.withLock { pending -> [(job: UnownedJob, preferred: Bool)] in
            let taken = pending
            pending.removeAll(keepingCapacity: true)
            return taken
        }
        let executor = asUnownedSerialExecutor()
        let taskExecutor = GLibTaskExecutor.shared.asUnownedTaskExecutor()
        for (job, preferred) in jobs {
            // A job of a task that prefers the loop runs as the engine's too: nothing else runs on
            // this thread meanwhile, so that is what it is, and the `EngineActor` hop that follows
            // every resumption then costs nothing (the runtime compares both executors; a job run
            // as the task executor alone would be queued once more to become the engine's).
            if preferred {
                job.runSynchronously(isolatedTo: executor, taskExecutor: taskExecutor)
            } else {
                job.runSynchronously(on: executor)
            }
        }
        runAfterDrain()
        isDraining = false
        if queue.withLock({ !$0.isEmpty }) {
            g_source_set_ready_time(source, 0)
        }
    }

    private func runAfterDrain() {
        while !afterDrain.isEmpty {
            let bodies = afterDrain
            afterDrain.removeAll()
            EngineActor.assumeIsolated { for body in bodies { body() } }
        }
    }
}

private let jobSourceDispatch: @convention(c) (
    UnsafeMutablePointer<GSource>?, GSourceFunc?, gpointer?
) -> gboolean = { _, _, _ in
    GLibExecutor.shared.drain()
    return hsg_true()  // G_SOURCE_CONTINUE: the source lives for the whole process
}

private let jobSourcePrepare: @convention(c) (UnsafeMutablePointer<GSource>?, UnsafeMutablePointer<gint>?) -> gboolean = { _, timeout in
    GLibExecutor.shared.turnCount &+= 1
    GLibExecutor.shared.loopThread.store(pthread_self(), ordering: .relaxed)
    timeout?.pointee = -1  // no opinion: the ready time (set by `enqueue`) decides
    return hsg_false()
}

private nonisolated(unsafe) var jobSourceFuncs = GSourceFuncs(
    prepare: jobSourcePrepare, check: nil, dispatch: jobSourceDispatch, finalize: nil,
    closure_callback: nil, closure_marshal: nil
)
