/// Lets numbered requests through in their order (0, 1, 2, …): the page keeps two chunk uploads in
/// flight, and WebKit may hand their requests over in either order.
actor SequenceGate {
    private var next = 0
    private var waiting: [Int: CheckedContinuation<Void, Never>] = [:]

    /// Waits for the turn of `number`; false for a number already passed or too far ahead.
    func enter(_ number: Int) async -> Bool {
        guard number >= next, number < next + 16, waiting[number] == nil else { return false }
        if number > next { await withCheckedContinuation { waiting[number] = $0 } }
        return true
    }

    /// The current number is done: lets the next one in.
    func leave() {
        next += 1
        waiting.removeValue(forKey: next)?.resume()
    }
}
