import Foundation
internal import CGLib

/// Watches a folder tree with GIO's `GFileMonitor` and reports changes, debounced: `onChange` gets
/// the paths that changed once the tree has been quiet for a moment (``ChangeDebounce``). A
/// directory monitor (`g_file_monitor_directory`) sees one folder, so there is one per folder,
/// added and dropped as folders come and go. Hidden files and editor backups (`.x.swp`, `x~`) are
/// ignored. Stopped when released.
@EngineActor
package final class DirectoryWatch {
    private let onChange: @EngineActor ([String]) -> Void
    private var monitors: [String: (monitor: gpointer, connection: SignalConnection)] = [:]
    private var debounce: ChangeDebounce
    private var changed: [String] = []
    private var timer: LoopTimer?

    package init(root: String, debounce: ChangeDebounce = ChangeDebounce(), onChange: @escaping @EngineActor ([String]) -> Void) throws(ShellError) {
        self.onChange = onChange
        self.debounce = debounce
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .fileNotFound("\(root) (the folder to watch)")
        }
        try watchTree(root)
    }

    isolated deinit { stop() }

    /// The folders watched now.
    package var folders: [String] { monitors.keys.sorted() }

    package func stop() {
        timer?.cancel()
        for (_, entry) in monitors { drop(entry) }
        monitors = [:]
    }

    private func watchTree(_ root: String) throws(ShellError) {
        try watch(root)
        let children = FileManager.default.enumerator(at: URL(fileURLWithPath: root), includingPropertiesForKeys: [.isDirectoryKey],
                                                      options: [.skipsHiddenFiles])
        while let url = children?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true { try watch(url.path) }
        }
    }

    private func watch(_ folder: String) throws(ShellError) {
        guard monitors[folder] == nil else { return }
        let file = g_file_new_for_path(folder)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        var error: UnsafeMutablePointer<GError>?
        // WATCH_MOVES: an editor's save-by-rename arrives as one RENAMED/MOVED_IN event.
        guard let monitor = g_file_monitor_directory(file, G_FILE_MONITOR_WATCH_MOVES, nil, &error) else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            throw .invalidArgument("cannot watch \(folder): \(message)")
        }
        // GIO holds back repeated CHANGED events for 800 ms by default; the debounce decides instead.
        g_file_monitor_set_rate_limit(monitor, 0)
        let raw = UnsafeMutableRawPointer(monitor)
        let signal: FileMonitorSignal = { [weak self] path, otherPath, event in self?.handle(path, otherPath, event) }
        monitors[folder] = (raw, connectSignal(raw, "changed", unsafeBitCast(fileMonitorTrampoline, to: GCallback.self), signal))
    }

    private func drop(_ entry: (monitor: gpointer, connection: SignalConnection)) {
        entry.connection.disconnect()
        g_file_monitor_cancel(entry.monitor.assumingMemoryBound(to: GFileMonitor.self))
        g_object_unref(entry.monitor)
    }

    private func handle(_ path: String?, _ otherPath: String?, _ event: GFileMonitorEvent) {
        guard let path, event != G_FILE_MONITOR_EVENT_PRE_UNMOUNT, event != G_FILE_MONITOR_EVENT_UNMOUNTED else { return }
        let target = (event == G_FILE_MONITOR_EVENT_RENAMED ? otherPath : nil) ?? path
        if event == G_FILE_MONITOR_EVENT_DELETED || event == G_FILE_MONITOR_EVENT_MOVED_OUT || event == G_FILE_MONITOR_EVENT_RENAMED {
            for folder in monitors.keys where folder == path || folder.hasPrefix(path + "/") {
                if let entry = monitors.removeValue(forKey: folder) { drop(entry) }
            }
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory), isDirectory.boolValue, !Self.isIgnored(target) {
            try? watchTree(target)
        }
        guard !Self.isIgnored(target) || !Self.isIgnored(path) else { return }
        if !changed.contains(target) { changed.append(target) }
        let delay = debounce.record(at: .now) - .now
        timer?.cancel()
        timer = LoopTimer(after: max(delay, .zero)) { [weak self] in self?.fire() }
    }

    private func fire() {
        debounce.fired()
        let paths = changed
        changed = []
        if !paths.isEmpty { onChange(paths) }
    }

    /// Hidden files and folders, and editor backups: not the app's files.
    static func isIgnored(_ path: String) -> Bool {
        let name = URL(fileURLWithPath: path).lastPathComponent
        return name.hasPrefix(".") || name.hasSuffix("~") || name.hasPrefix("#")
    }
}

/// `void (*)(GFileMonitor*, GFile *file, GFile *other_file, GFileMonitorEvent, gpointer)` as paths.
typealias FileMonitorSignal = @EngineActor (String?, String?, GFileMonitorEvent) -> Void
let fileMonitorTrampoline: @convention(c) (gpointer?, OpaquePointer?, OpaquePointer?, GFileMonitorEvent, gpointer?) -> Void = { _, file, other, event, data in
    let body = TypedSignalClosure<FileMonitorSignal>.from(data)
    let path = file.flatMap { g_file_get_path($0) }.map { pointer in defer { g_free(pointer) }; return String(cString: pointer) }
    let otherPath = other.flatMap { g_file_get_path($0) }.map { pointer in defer { g_free(pointer) }; return String(cString: pointer) }
    EngineActor.assumeIsolated { body(path, otherPath, event) }
}
