package import CGLib

/// One strong reference to a GObject, dropped when this box dies.
///
/// GTK objects must be released on the loop thread; a reference that dies elsewhere (the last
/// Swift owner went away on another thread) hands its unref to the loop.
package final class GObjectReference: @unchecked Sendable {
    let raw: gpointer

    /// Takes over a reference the caller owns (a `_new` function's result that is not floating).
    package init(taking raw: gpointer) {
        self.raw = raw
    }

    /// Adds a reference, sinking a floating one (widgets are created floating).
    package init(retaining raw: gpointer) {
        self.raw = g_object_ref_sink(raw)
    }

    func pointer<T>(as _: T.Type) -> UnsafeMutablePointer<T> {
        raw.assumingMemoryBound(to: T.self)
    }

    deinit {
        let object = UncheckedPointer(raw)
        if EngineActor.isCurrentThread {
            g_object_unref(object.raw)
        } else {
            Task { @EngineActor in g_object_unref(object.raw) }
        }
    }
}

/// A C pointer carried across an isolation boundary when the code knows it is safe: the pointee is
/// only touched on the loop thread.
struct UncheckedPointer: @unchecked Sendable {
    let raw: UnsafeMutableRawPointer
    init(_ raw: UnsafeMutableRawPointer) { self.raw = raw }
}
