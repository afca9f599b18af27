/// How much state test pages share (`hybrid-run test --shared-state`).
public enum PageTestIsolation: String, Sendable, Equatable, CaseIterable {
    /// Every page starts as if it were the first: a new document (new JavaScript global object)
    /// in a view whose `window.name` is emptied and whose history is put back to a new view's,
    /// in a worker-own ephemeral web context whose cookies, local and session storage, IndexedDB,
    /// caches and service workers are cleared after each page (for `file:` pages the web
    /// process's in-memory copy of files is kept: files do not change during a run).
    case perPage
    /// One context for the run and one reused view per worker: faster, but a page sees the
    /// storage, cookies, `window.name` and history earlier pages left, so results can depend on
    /// page order, `--workers` and `--shard`.
    case shared
}
