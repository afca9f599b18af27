import Foundation
import HybridShell
import Testing

@Suite("Scheme handlers in real WebKit: bodies, failures, deadlines, cancellation")
@EngineActor
struct SchemeHandlerTests {
    @Test func postAndPutBodiesArriveByteExact() async throws {
        let view = try await SchemeFixture.appView()
        defer { view.close() }
        let result = try await view.callAsyncJavaScript("""
            const body = new Uint8Array(4096);
            for (let i = 0; i < body.length; i++) body[i] = (i * 7) % 256;  // every byte value, NULs included
            const out = {};
            for (const method of ['POST', 'PUT']) {
                const response = await fetch('probe:///echo', {method, body, headers: {'Content-Type': 'application/octet-stream'}});
                const echoed = new Uint8Array(await response.arrayBuffer());
                let same = echoed.length === body.length;
                for (let i = 0; same && i < body.length; i++) if (echoed[i] !== body[i]) same = false;
                out[method] = {status: response.status, same, method: response.headers.get('x-method'),
                               length: response.headers.get('x-length'), origin: response.headers.get('x-origin'),
                               page: response.headers.get('x-page')};
            }
            return out;
            """)
        for method in ["POST", "PUT"] {
            #expect(result[method] == [
                "status": 200, "same": true, "method": .string(method), "length": "4096", "origin": "app://",
                "page": "app:///index.html",
            ])
        }
    }

    @Test func aBodyOverTheLimitIs413WithoutCallingTheHandler() async throws {
        let view = try await SchemeFixture.appView()
        defer { view.close() }
        let result = try await view.callAsyncJavaScript("""
            const post = async size => (await fetch('probe-small:///echo', {method: 'POST', body: new Uint8Array(size)})).status;
            return {small: await post(1000), large: await post(1001)};
            """)
        #expect(result == ["small": 200, "large": 413])
    }

    @Test func aThrowingHandlerAnswers500() async throws {
        let view = try await SchemeFixture.appView()
        defer { view.close() }
        let result = try await view.callAsyncJavaScript("""
            const response = await fetch('probe:///throw');
            return {status: response.status, text: await response.text()};
            """)
        #expect(result["status"] == 500)
        #expect(result["text"]?.stringValue?.contains("the probe handler was told to fail") == true)
    }

    @Test func aHandlerThatNeverAnswersGets504AndIsCancelled() async throws {
        let view = try await SchemeFixture.appView()
        defer { view.close() }
        let cancelled = try SchemeFixture.shared().probe.handoff("hang-cancelled-504")
        let started = ContinuousClock.now
        let result = try await view.callAsyncJavaScript("return (await fetch('probe:///hang?id=504')).status")
        #expect(result == 504)
        #expect(ContinuousClock.now - started >= .seconds(3))
        #expect(try await cancelled.value(timeout: .seconds(30), "the hanging handler's cancellation"))
    }

    @Test func abortingMidStreamStopsTheProducer() async throws {
        let view = try await SchemeFixture.appView()
        defer { view.close() }
        let released = try SchemeFixture.shared().probe.handoff("stream-released-abort")
        let result = try await view.callAsyncJavaScript("""
            const controller = new AbortController();
            const response = await fetch('probe:///stream?id=abort', {signal: controller.signal});
            const reader = response.body.getReader();
            let received = 0;
            while (received < 1 << 20) { const {value} = await reader.read(); received += value.length; }
            controller.abort();
            try { await reader.read(); } catch (e) { return {received: received >= 1 << 20, error: e.name}; }
            return {received: received >= 1 << 20, error: 'none'};
            """)
        #expect(result == ["received": true, "error": "AbortError"])
        #expect(try await released.value(timeout: .seconds(30), "the stream's release after abort"))
    }

    @Test func closingThePageCancelsItsPendingRequest() async throws {
        let view = try await SchemeFixture.appView()
        let cancelled = try SchemeFixture.shared().probe.handoff("hang-cancelled-close")
        _ = try await view.evaluateJavaScript("fetch('probe:///hang?id=close').catch(() => {}); 1")
        // Let the request reach the handler before the page goes away.
        _ = try await view.callAsyncJavaScript("await new Promise(r => setTimeout(r, 200)); return 1")
        view.close()
        #expect(try await cancelled.value(timeout: .seconds(2.5), "the handler's cancellation when the page closed"))
    }
}
