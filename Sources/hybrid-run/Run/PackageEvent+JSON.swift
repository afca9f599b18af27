import HybridShell

extension PackageEvent {
    /// The event as one `--print-events` JSON object, like ``PageEvent/jsonObject``.
    var jsonObject: [String: JSONValue] {
        switch self {
        case .checked(let source, let available):
            ["event": "packageChecked", "source": .string(source), "available": .array(available.map { .string($0) })]
        case .started(let app, let sequence, let incremental):
            ["event": "packageStarted", "app": .string(app), "sequence": .number(Double(sequence)), "incremental": .bool(incremental)]
        case .installed(let app, let version, let sequence):
            ["event": "packageInstalled", "app": .string(app), "version": .string(version), "sequence": .number(Double(sequence))]
        case .failed(let app, let reason): ["event": "packageFailed", "app": app.map { .string($0) } ?? .null, "reason": .string(reason)]
        case .rolledBack(let app, let sequence): ["event": "packageRolledBack", "app": .string(app), "sequence": .number(Double(sequence))]
        case .removed(let app): ["event": "packageRemoved", "app": .string(app)]
        }
    }
}
