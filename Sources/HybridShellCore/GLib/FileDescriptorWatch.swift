internal import CGLib

/// Calls a closure on the GLib main loop whenever a file descriptor is ready
/// (`g_unix_fd_add_full`): the loop's own poll wakes it, so nothing polls on a timer.
@EngineActor
final class FileDescriptorWatch {
    /// What to wait for. A hang-up and an error are always reported, whatever is asked.
    struct Events: OptionSet {
        let rawValue: UInt32

        static let readable = Events(rawValue: G_IO_IN.rawValue)
        static let writable = Events(rawValue: G_IO_OUT.rawValue)
        static let hangUp = Events(rawValue: G_IO_HUP.rawValue)
        static let error = Events(rawValue: G_IO_ERR.rawValue)
    }

    private var sourceID: guint = 0

    /// Watches `descriptor` (which stays the caller's to close) for `events`. `body` gets the
    /// events that happened and returns whether to keep watching.
    init(_ descriptor: Int32, for events: Events, _ body: @escaping @EngineActor (Events) -> Bool) {
        let box = FileDescriptorWatchBox(body)
        box.watch = self
        let condition = GIOCondition(rawValue: events.union([.hangUp, .error]).rawValue)
        sourceID = g_unix_fd_add_full(G_PRIORITY_DEFAULT, descriptor, condition, fileDescriptorReady,
                                      Unmanaged.passRetained(box).toOpaque(), releaseFileDescriptorWatch)
    }

    /// Stops watching. Idempotent; also allowed from inside `body`.
    func cancel() {
        guard sourceID != 0 else { return }
        g_source_remove(sourceID)
        sourceID = 0
    }

    fileprivate func ended() { sourceID = 0 }

    isolated deinit { cancel() }
}

/// What GLib holds for a watch: the body, and the watch to tell when its source has ended.
private final class FileDescriptorWatchBox {
    let body: @EngineActor (FileDescriptorWatch.Events) -> Bool
    weak var watch: FileDescriptorWatch?

    init(_ body: @escaping @EngineActor (FileDescriptorWatch.Events) -> Bool) { self.body = body }
}

private let fileDescriptorReady: GUnixFDSourceFunc = { _, condition, data in
    nonisolated(unsafe) let box = Unmanaged<FileDescriptorWatchBox>.fromOpaque(data!).takeUnretainedValue()
    let keep = EngineActor.assumeIsolated {
        let keep = box.body(FileDescriptorWatch.Events(rawValue: condition.rawValue))
        if !keep { box.watch?.ended() }
        return keep
    }
    return keep ? hsg_true() : hsg_false()  // G_SOURCE_CONTINUE or G_SOURCE_REMOVE
}

private let releaseFileDescriptorWatch: GDestroyNotify = { data in
    guard let data else { return }
    Unmanaged<FileDescriptorWatchBox>.fromOpaque(data).release()
}
