/// Work that runs once the engine's current batch of Swift jobs has run, in the same main-loop
/// dispatch: batching what those jobs queued (the bridge's down-frames) without the extra
/// main-loop turn a new `Task` would wait for.
@EngineActor
enum EndOfJobs {
    /// Schedules `body`; false (nothing scheduled) when not called from a job: then the caller
    /// must start its own.
    static func schedule(_ body: @escaping @EngineActor () -> Void) -> Bool {
        GLibExecutor.shared.runAfterCurrentJobs(body)
    }
}
