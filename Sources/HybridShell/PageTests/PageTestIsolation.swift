/// How much state test pages share (`hybrid-run test --shared-state`).
public enum PageTestIsolation: String, Sendable, Equatable, CaseIterable {
    /// Every page starts as if it were the first: a fresh view (new browsing context, history,
    /// `window.name` and JavaScript global object) in a worker-own ephemeral web context whose
    /// cookies, storage, IndexedDB, caches and service workers are cleared after each page.
    case perPage
    /// One context for the run and one reused view per worker: faster, but a page sees the
    /// storage, cookies, `window.name` and history earlier pages left, so results can depend on
    /// page order, `--workers` and `--shard`.
    case shared
}
