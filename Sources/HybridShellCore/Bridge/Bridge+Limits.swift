extension Bridge {
    /// The data of a legacy dialect's call (a WebViewJavascriptBridge queue message, dsbridge's
    /// `{"data":…}` arguments), read with the limits every dialect applies: strict JSON (no
    /// duplicate or `__proto__` keys), members nested at most ``BridgeConfiguration/maxDepth``
    /// levels, `data` at most ``BridgeConfiguration/maxPayload`` characters. Errors name the
    /// configured limits.
    func legacyMembers(_ text: some StringProtocol) -> Result<[String: RawJSON], BridgeError> {
        do {
            let members = try RawMembers.object(String(text), maxDepth: configuration.maxDepth)
            if let data = members["data"], let error = payloadError(data) { return .failure(error) }
            return .success(members)
        } catch {
            return .failure(error)
        }
    }

    /// `PAYLOAD_TOO_LARGE` for data longer than the configured limit (JavaScript's length).
    func payloadError(_ data: RawJSON) -> BridgeError? {
        guard data.text.utf8.count > configuration.maxPayload, data.text.utf16.count > configuration.maxPayload else { return nil }
        return BridgeError(.payloadTooLarge,
                           "the data is \(data.text.utf16.count) characters long; the limit is \(configuration.maxPayload)")
    }
}

extension BridgeError {
    /// The error for data nested deeper than the configured `limit` (in every dialect).
    static func tooDeep(limit: Int, at offset: Int? = nil) -> BridgeError {
        BridgeError(.invalidMessage, "data nests deeper than \(limit) levels" + (offset.map { " (at byte \($0))" } ?? ""))
    }
}

extension Bridge {
    /// A post from a session that may not use the bridge: every call in it gets a transcript
    /// entry with `outcome: denied` (the post as a whole gets one when it holds no call).
    func recordDenied(_ frames: [InboundFrame], in session: BridgeSession, size: Int) {
        guard let transcript else { return }
        var recorded = false
        for case .call(let id, let name, let data, _, _) in frames {
            transcript.record(direction: "in", session: session.id, kind: "call", handler: name, id: id,
                              size: data.text.utf8.count, latency: nil, outcome: "denied")
            recorded = true
        }
        if !recorded {
            transcript.record(direction: "in", session: session.id, kind: "post", handler: nil, id: nil, size: size,
                              latency: nil, outcome: "denied")
        }
    }
}
