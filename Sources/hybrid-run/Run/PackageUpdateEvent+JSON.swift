import HybridShell

extension PackageUpdateEvent {
    /// The event as one `--print-events` JSON object, like ``PackageEvent/jsonObject``.
    var jsonObject: [String: JSONValue] {
        switch self {
        case .checked(let available): ["event": "updateChecked", "available": .array(available.map { .string($0) })]
        case .ready(let app, let version, let sequence):
            ["event": "updateReady", "app": .string(app), "version": .string(version), "sequence": .number(Double(sequence))]
        case .failed(let app, let reason): ["event": "updateFailed", "app": app.map { .string($0) } ?? .null, "reason": .string(reason)]
        case .applied(let app, let sequence): ["event": "updateApplied", "app": .string(app), "sequence": .number(Double(sequence))]
        }
    }
}
