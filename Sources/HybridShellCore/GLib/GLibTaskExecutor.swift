/// The GLib main loop as a Swift *task executor*: a task that prefers it resumes on the loop
/// thread, in the dispatch that resumed it, instead of on Swift's global pool.
///
/// Why it exists: Swift resumes a continuation on the generic executor, which for a task without
/// a preference is the global pool. An `@EngineActor` task awaiting a WebKit callback (a native →
/// page bridge call, a page event) therefore wakes a pool thread, which only queues the task back
/// onto the loop: two thread wake-ups per await, where a C program makes none. With this
/// preference the callback's resumption is queued here, on the loop thread itself, and runs before
/// the dispatch ends.
///
/// Its jobs share ``GLibExecutor``'s queue. What runs with the preference runs on the loop
/// thread, nonisolated code included: keep blocking work out of such tasks.
///
/// A known cost: a preferring task that comes to the engine from elsewhere (its start, the end of
/// a `Task.sleep`, another actor) runs as a plain engine job until its next resumption comes
/// through here, and the runtime queues each of its `EngineActor` hops meanwhile once more (a job
/// has no public way to say which task it belongs to). That is a main-loop turn each, never a
/// thread wake-up.
final class GLibTaskExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = GLibTaskExecutor()

    private init() {}

    func enqueue(_ job: consuming ExecutorJob) {
        GLibExecutor.shared.enqueue(UnownedJob(job), preferred: true)
    }

    func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }
}
