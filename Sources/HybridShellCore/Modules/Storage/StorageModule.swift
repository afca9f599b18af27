import Synchronization

/// The `storage` module: persistent key-value storage per app origin (wx.setStorage & co.).
/// `storage.set {key, data}`, `storage.get {key, default?}` → `{data}`, `storage.remove {key}`,
/// `storage.clear`, `storage.info` → `{keys, currentSize, limitSize}` (sizes in KB, as WeChat).
/// Values are any JSON, kept and returned byte for byte. See docs/modules.md.
public enum StorageModule {
    public static let name = "storage"
    public static let fileName = "hybridshell-storage.sqlite"

    /// - Parameter path: the SQLite file, or nil for an in-memory store (ephemeral runs). The file
    ///   is opened at the first call, so a corrupt or locked file is that call's precise error
    ///   (and the next call tries again).
    /// - Parameter partition: whose keys a call sees: its origin by default; page tests add the
    ///   page's run so every page starts empty.
    public static func module(path: String?, quota: Int, partition: (@Sendable (BridgeCall) -> String)? = nil) -> NativeModule {
        let opened = Mutex<StorageStore?>(nil)
        let store: @Sendable () throws(BridgeError) -> StorageStore = { () throws(BridgeError) -> StorageStore in
            let result: Result<StorageStore, BridgeError> = opened.withLock { current in
                if let current { return .success(current) }
                do {
                    let store = try StorageStore(path: path, quota: quota)
                    current = store
                    return .success(store)
                } catch {
                    return .failure(error as? BridgeError ?? BridgeError.from(error))
                }
            }
            return try result.get()
        }
        return module(store: store, partition: partition ?? { $0.origin })
    }

    /// The module over a store the caller opened (tests, benchmarks).
    public static func module(store: StorageStore) -> NativeModule {
        module(store: { store }, partition: { $0.origin })
    }

    private static func module(store: @escaping @Sendable () throws(BridgeError) -> StorageStore,
                               partition: @escaping @Sendable (BridgeCall) -> String) -> NativeModule {
        NativeModule(name: name) { handlers in
            handlers.registerRaw("storage.set", sync: { data, call in
                let arguments = try ModuleArguments(data, handler: "storage.set", fields: ["key", "data"])
                let key = try storageKey(arguments)
                let value = try arguments.raw("data")
                if value.text.utf8.count > StorageStore.maxValueLength {
                    throw arguments.invalid("data", "is \(value.text.utf8.count) bytes as JSON; the limit is \(StorageStore.maxValueLength)")
                }
                try store().set(origin: partition(call), key: key, value: value.text)
                return .null
            })
            handlers.registerRaw("storage.get", sync: { data, call in
                let arguments = try ModuleArguments(data, handler: "storage.get", fields: ["key", "default"])
                let key = try storageKey(arguments)
                guard let value = try store().get(origin: partition(call), key: key) else {
                    // A default answers a missing key without an error (wx.getStorageSync's "").
                    if let fallback = arguments.members["default"] { return RawJSON(unchecked: #"{"data":"# + fallback.text + "}") }
                    throw BridgeError(.handlerError, "data not found", details: ["reason": "notFound", "key": .string(key)])
                }
                return RawJSON(unchecked: #"{"data":"# + value + "}")
            })
            handlers.registerRaw("storage.remove", sync: { data, call in
                let arguments = try ModuleArguments(data, handler: "storage.remove", fields: ["key"])
                let key = try storageKey(arguments)
                try store().remove(origin: partition(call), key: key)
                return .null
            })
            handlers.registerRaw("storage.clear", sync: { data, call in
                _ = try ModuleArguments(data, handler: "storage.clear", fields: [])
                try store().clear(origin: partition(call))
                return .null
            })
            handlers.registerRaw("storage.info", sync: { data, call in
                _ = try ModuleArguments(data, handler: "storage.info", fields: [])
                let current = try store()
                let info = try current.info(origin: partition(call))
                let kilobytes = { (bytes: Int) in JSONValue.number(Double((bytes + 1023) / 1024)) }
                return RawJSON(unchecked: JSONValue.object([
                    "keys": .array(info.keys.map(JSONValue.string)),
                    "currentSize": kilobytes(info.bytes), "limitSize": kilobytes(current.quota),
                ]).jsonText)
            })
        }
    }

    /// The call's `key`. One with a NUL character is refused: SQLite takes text up to its first
    /// NUL, so "a\0b" would be stored, read and removed as "a" (another key's value).
    private static func storageKey(_ arguments: ModuleArguments) throws(BridgeError) -> String {
        let key = try arguments.string("key", maxLength: StorageStore.maxKeyLength)
        guard !key.utf8.contains(0) else { throw arguments.invalid("key", "must not contain a NUL character") }
        return key
    }
}
