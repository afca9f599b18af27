/// Checks a frame's members (pure; the syntax was checked already).
enum FrameShape {
    /// The frame types and the members each may have (masks of ``FrameMembers/Key``).
    static func allowedKeys(_ type: String) -> UInt16? {
        typealias Key = FrameMembers.Key
        switch type {
        case "hello": return Key.t.rawValue | Key.url.rawValue | Key.origin.rawValue | Key.secret.rawValue | Key.dialects.rawValue | Key.deliver.rawValue
        case "call": return Key.t.rawValue | Key.id.rawValue | Key.h.rawValue | Key.d.rawValue | Key.to.rawValue | Key.dl.rawValue
        case "reply": return Key.t.rawValue | Key.id.rawValue | Key.ok.rawValue | Key.d.rawValue | Key.e.rawValue
        case "progress": return Key.t.rawValue | Key.id.rawValue | Key.d.rawValue
        case "cancel": return Key.t.rawValue | Key.id.rawValue
        default: return nil
        }
    }

    static func frame(members: FrameMembers, payload: RawJSON?) -> InboundFrame {
        let id = members.id?.intValue.flatMap { $0 >= 1 ? $0 : nil }
        guard let type = members.t?.stringValue else { return .invalid(id: id, reason: "the frame has no type (t)") }
        guard let allowed = allowedKeys(type) else { return .invalid(id: id, reason: "unknown frame type \(JSONValue.quoted(type))") }
        // The first member the type does not have, in sorted order.
        if let extra = members.names(notIn: allowed).min() {
            return .invalid(id: id, reason: "a \(type) frame has no member \(JSONValue.quoted(extra))")
        }
        switch type {
        case "hello":
            guard let url = members.url?.stringValue, let origin = members.origin?.stringValue,
                  let secret = members.secret?.stringValue, secret.count == 32
            else { return .invalid(id: nil, reason: "a hello frame needs url, origin and a 32-digit secret") }
            let dialects = members.dialects?.arrayValue?.compactMap(\.stringValue) ?? []
            var deliver = false
            if let value = members.deliver {
                guard let offered = value.boolValue else { return .invalid(id: nil, reason: "a hello frame's deliver must be true or false") }
                deliver = offered
            }
            return .hello(url: url, origin: origin, secret: secret, dialects: dialects, deliver: deliver)
        case "call":
            guard let id else { return .invalid(id: nil, reason: "a call frame needs an integer id ≥ 1") }
            guard let handler = members.h?.stringValue, !handler.isEmpty, handler.utf16.count <= 256 else {
                return .invalid(id: id, reason: "a call frame needs a handler name (h) of 1 to 256 characters")
            }
            var timeout: Int?
            if let value = members.to {
                guard let milliseconds = value.intValue, milliseconds > 0 else {
                    return .invalid(id: id, reason: "the deadline (to) must be a positive integer of milliseconds")
                }
                timeout = milliseconds
            }
            var dialect = BridgeDialect.hybrid
            if let name = members.dl {
                guard let known = name.stringValue.flatMap(BridgeDialect.init(rawValue:)) else {
                    return .invalid(id: id, reason: "unknown dialect (dl) \(name.jsonText)")
                }
                dialect = known
            }
            guard let payload else { return .invalid(id: id, reason: "a call frame needs data (d); null stands for none") }
            return .call(id: id, handler: handler, data: payload, timeoutMilliseconds: timeout, dialect: dialect)
        case "reply":
            guard let id else { return .invalid(id: nil, reason: "a reply frame needs an integer id ≥ 1") }
            switch members.ok {
            case .bool(true)?:
                return .reply(id: id, result: .success(payload ?? .null))
            case .bool(false)?:
                guard let error = members.e, let code = error["code"]?.stringValue.flatMap(BridgeError.Code.init(rawValue:)) else {
                    return .reply(id: id, result: .failure(BridgeError(.handlerError, members.e?["message"]?.stringValue ?? "the page handler failed")))
                }
                let details = error["details"].flatMap { $0.isNull ? nil : $0 }
                return .reply(id: id, result: .failure(BridgeError(code, error["message"]?.stringValue ?? "", details: details)))
            default:
                return .invalid(id: nil, reason: "a reply frame needs ok: true or false")
            }
        case "progress":
            guard let id else { return .invalid(id: nil, reason: "a progress frame needs an integer id ≥ 1") }
            return .progress(id: id, data: payload ?? .null)
        default:
            guard let id else { return .invalid(id: nil, reason: "a cancel frame needs an integer id ≥ 1") }
            return .cancel(id: id)
        }
    }
}
