/// The members of one up-frame as read: those a frame can have by name, any other key by its
/// text. A struct rather than a dictionary: every frame of every post is read into one, and
/// hashing its keys cost more than reading them.
struct FrameMembers {
    /// A member some frame type has; its raw value is its bit in ``present`` and in
    /// ``FrameShape``'s masks.
    enum Key: UInt16, CaseIterable {
        case t = 1, id = 2, h = 4, d = 8, to = 16, dl = 32, ok = 64, e = 128
        case url = 256, origin = 512, secret = 1024, dialects = 2048, deliver = 4096

        /// The member's key, by the position of its bit.
        private static let names = ["t", "id", "h", "d", "to", "dl", "ok", "e", "url", "origin", "secret", "dialects", "deliver"]

        var name: String { Key.names[rawValue.trailingZeroBitCount] }

        init?(name: String) {
            guard let position = Key.names.firstIndex(of: name) else { return nil }
            self.init(rawValue: 1 << UInt16(position))
        }
    }

    var t, id, h, to, dl, ok, e, url, origin, secret, dialects, deliver: JSONValue?
    /// The keys present among ``Key`` (the payload `d` is read apart: see ``notePayload()``).
    private(set) var present: UInt16 = 0
    /// Keys no frame type has, in the order read.
    private(set) var unknown: [String] = []

    /// Keeps a member's value (the reader's duplicate check runs before this).
    mutating func set(_ name: String, _ value: JSONValue) {
        guard let key = Key(name: name) else {
            unknown.append(name)
            return
        }
        present |= key.rawValue
        switch key {
        case .t: t = value
        case .id: id = value
        case .h: h = value
        case .d: break
        case .to: to = value
        case .dl: dl = value
        case .ok: ok = value
        case .e: e = value
        case .url: url = value
        case .origin: origin = value
        case .secret: secret = value
        case .dialects: dialects = value
        case .deliver: deliver = value
        }
    }

    /// Records that the frame has a payload (`d`).
    mutating func notePayload() {
        present |= Key.d.rawValue
    }

    /// The names of the members present that `allowed` (a mask of ``Key``s) does not include,
    /// unknown keys among them.
    func names(notIn allowed: UInt16) -> [String] {
        let extra = present & ~allowed
        var names = unknown
        if extra != 0 {
            for key in Key.allCases where extra & key.rawValue != 0 { names.append(key.name) }
        }
        return names
    }
}
