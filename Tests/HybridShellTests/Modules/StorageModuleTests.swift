import Foundation
import HybridShell
import Testing

@Suite("Storage module in real WebKit: hybrid.call, wx.*, argument checks")
@EngineActor
struct StorageModuleTests {
    @Test func setGetRemoveClearInfoThroughHybridCall() async throws {
        let fixture = try await ModuleFixture([.storage])
        let page = try await fixture.openApp()
        let value: JSONValue = ["n": 1, "list": [true, nil, "ü\u{1F600}"], "nested": ["x": 1.5]]
        #expect(try await page.hybridCall("storage.set", ["key": "a", "data": value]) == ["ok": nil])
        #expect(try await page.hybridCall("storage.get", ["key": "a"]) == ["ok": ["data": value]])
        #expect(try await page.hybridCall("storage.set", ["key": "b", "data": "text"]) == ["ok": nil])
        let info = try await page.hybridCall("storage.info")
        #expect(info["ok"]?["keys"] == ["a", "b"])
        #expect(info["ok"]?["limitSize"] == 10240)
        #expect(try await page.hybridCall("storage.remove", ["key": "a"]) == ["ok": nil])
        let missing = try await page.hybridCall("storage.get", ["key": "a"])
        #expect(missing["error"]?["code"] == "HANDLER_ERROR")
        #expect(missing["error"]?["message"] == "data not found")
        #expect(try await page.hybridCall("storage.clear") == ["ok": nil])
        #expect(try await page.hybridCall("storage.info")["ok"]?["keys"] == [])
        await fixture.close()
    }

    struct BadCall: Sendable, CustomStringConvertible {
        let handler: String
        let arguments: JSONValue
        let message: String
        var description: String { "\(handler) \(arguments.jsonText.prefix(40))" }
    }

    nonisolated static let badCalls: [BadCall] = [
        BadCall(handler: "storage.set", arguments: ["data": 1], message: "storage.set: key is missing"),
        BadCall(handler: "storage.set", arguments: ["key": "k"], message: "storage.set: data is missing"),
        BadCall(handler: "storage.set", arguments: ["key": 7, "data": 1], message: "storage.set: key should be a string, not a number"),
        BadCall(handler: "storage.set", arguments: ["key": "k", "data": 1, "extra": true], message: "storage.set: extra is not a field of storage.set"),
        BadCall(handler: "storage.set", arguments: ["key": "", "data": 1], message: "storage.set: key must not be empty"),
        BadCall(handler: "storage.set", arguments: JSONValue.object(["key": JSONValue.string(String(repeating: "k", count: 1025)), "data": 1]),
                message: "storage.set: key is 1025 bytes long; the limit is 1024"),
        BadCall(handler: "storage.set", arguments: "just a string", message: "storage.set takes an object with data, key, not a string"),
        BadCall(handler: "storage.get", arguments: ["key": ["nested": 1]], message: "storage.get: key should be a string, not an object"),
        BadCall(handler: "storage.clear", arguments: ["all": true], message: "storage.clear: all is not a field of storage.clear"),
    ]

    @Test(arguments: badCalls)
    func badArgumentsArePreciseErrors(call: BadCall) async throws {
        let fixture = try await ModuleFixture([.storage])
        let page = try await fixture.openApp()
        let answer = try await page.hybridCall(call.handler, call.arguments)
        #expect(answer["error"]?["code"] == "INVALID_MESSAGE")
        #expect(answer["error"]?["message"]?.stringValue?.hasPrefix(call.message) == true, "\(answer)")
        await fixture.close()
    }
    /// Issue 31, item 9: SQLite cut a key at its NUL, so "a\0b" overwrote and read "a".
    @Test func aKeyWithANulIsRefusedNotCutShort() async throws {
        let fixture = try await ModuleFixture([.storage])
        let page = try await fixture.openApp()
        #expect(try await page.hybridCall("storage.set", ["key": "a", "data": 1]) == ["ok": nil])
        for handler in ["storage.set", "storage.get", "storage.remove"] {
            let arguments: JSONValue = handler == "storage.set" ? ["key": "a\u{0}b", "data": 2] : ["key": "a\u{0}b"]
            let answer = try await page.hybridCall(handler, arguments)
            #expect(answer["error"]?["code"] == "INVALID_MESSAGE", "\(handler): \(answer)")
            #expect(answer["error"]?["message"] == .string("\(handler): key must not contain a NUL character"))
        }
        let sync = try await page.run("try { wx.setStorageSync('a\\0b', 3); return 'stored' } catch (e) { return e.message }")
        #expect(sync.stringValue?.contains("key must not contain a NUL character") == true, "\(sync)")
        #expect(try await page.hybridCall("storage.get", ["key": "a"]) == ["ok": ["data": 1]])
        #expect(try await page.hybridCall("storage.info")["ok"]?["keys"] == ["a"])
        await fixture.close()
    }

    @Test func anOversizeValueAndAFullQuotaAreRefusedAndLeaveNothingBehind() async throws {
        let fixture = try await ModuleFixture([.storage], configure: { $0.storageQuota = 2048 })
        let page = try await fixture.openApp()
        let big = try await page.run("return await hybrid.call('storage.set', { key: 'big', data: 'x'.repeat(1048577) }).then(() => 'stored', e => e.message)")
        #expect(big.stringValue?.hasPrefix("storage.set: data is 1048579 bytes as JSON; the limit is 1048576") == true, "\(big)")
        #expect(try await page.hybridCall("storage.set", JSONValue.object(["key": "a", "data": JSONValue.string(String(repeating: "y", count: 1500))])) == ["ok": nil])
        let full = try await page.hybridCall("storage.set", JSONValue.object(["key": "b", "data": JSONValue.string(String(repeating: "y", count: 1500))]))
        #expect(full["error"]?["details"]?["reason"] == "quota")
        #expect(full["error"]?["message"]?.stringValue?.hasPrefix("exceed storage max size") == true)
        #expect(try await page.hybridCall("storage.info")["ok"]?["keys"] == ["a"])
        await fixture.close()
    }

    @Test func wxFunctionsHaveWeChatsCallbacksErrMsgAndSyncForms() async throws {
        let fixture = try await ModuleFixture([.storage])
        let page = try await fixture.openApp()
        let report = try await page.run("""
            const result = {};
            const viaCallbacks = (fn, options) => new Promise(resolve => {
              const seen = [];
              wx[fn](Object.assign({}, options, {
                success: res => seen.push(['success', res]),
                fail: res => seen.push(['fail', res]),
                complete: res => { seen.push(['complete', res.errMsg]); resolve(seen); },
              }));
            });
            result.set = await viaCallbacks('setStorage', { key: 'user', data: { name: 'Ada' } });
            result.get = await viaCallbacks('getStorage', { key: 'user' });
            result.missing = await viaCallbacks('getStorage', { key: 'nobody' });
            result.promise = await wx.getStorageInfo();
            result.rejected = await wx.getStorage({ key: 'nobody' }).then(() => 'resolved', res => res.errMsg);
            wx.setStorageSync('count', 3);
            result.sync = wx.getStorageSync('count');
            result.syncMissing = wx.getStorageSync('nothing');
            try { wx.setStorageSync('', 1); result.syncError = 'no error'; } catch (e) { result.syncError = e.message; }
            wx.removeStorageSync('count');
            result.afterRemove = wx.getStorageSync('count');
            result.infoSync = wx.getStorageInfoSync().keys;
            wx.clearStorageSync();
            result.cleared = wx.getStorageInfoSync().keys;
            return result;
            """)
        #expect(report["set"] == [["success", ["errMsg": "setStorage:ok"]], ["complete", "setStorage:ok"]])
        #expect(report["get"] == [["success", ["data": ["name": "Ada"], "errMsg": "getStorage:ok"]], ["complete", "getStorage:ok"]])
        #expect(report["missing"]?[0]?[0] == "fail")
        #expect(report["missing"]?[0]?[1]?["errMsg"] == "getStorage:fail data not found")
        #expect(report["promise"]?["keys"] == ["user"])
        #expect(report["promise"]?["errMsg"] == "getStorageInfo:ok")
        #expect(report["rejected"] == "getStorage:fail data not found")
        #expect(report["sync"] == 3)
        #expect(report["syncMissing"] == "")
        #expect(report["syncError"] == "setStorageSync:fail storage.set: key must not be empty")
        #expect(report["afterRemove"] == "")
        #expect(report["infoSync"] == ["user"])
        #expect(report["cleared"] == [])
        await fixture.close()
    }

    @Test func originsHaveSeparateStorageAndAFileStoreOutlivesItsManager() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("modules-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try await ModuleFixture([.storage], grants: { [try Capability(grant: "\($0)=storage")] }, dataDirectory: directory)
        let app = try await first.openApp()
        #expect(try await app.hybridCall("storage.set", ["key": "k", "data": "app"]) == ["ok": nil])
        let other = try await first.openOther()
        #expect(try await other.hybridCall("storage.get", ["key": "k"])["error"]?["message"] == "data not found")
        #expect(try await other.hybridCall("storage.set", ["key": "k", "data": "other"]) == ["ok": nil])
        await first.close()
        #expect(FileManager.default.fileExists(atPath: directory + "/" + StorageModule.fileName))
        let store = try StorageStore(path: directory + "/" + StorageModule.fileName, quota: 1 << 20)
        #expect(try store.get(origin: first.app.origin, key: "k") == #""app""#)
        #expect(try store.get(origin: first.other.origin, key: "k") == #""other""#)
    }
}
