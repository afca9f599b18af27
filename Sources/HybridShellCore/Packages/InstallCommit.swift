#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The steps that make an extracted version (already renamed into `versions/N`) the active one,
/// in an order that keeps the promise "the install fails with the old version active, or it
/// succeeds": everything that allocates space (the new links, the new state file) is written
/// before the switch, so a full disk can only fail an install that has not switched. After the
/// switch (the rename of `current.new` over `current`) nothing can make the install fail: a later
/// step that does not happen is finished by ``PackageStore/recover()``. Pure: ``run(on:)`` is
/// handed the file system (``StoreFileSystem``), so tests fail each step in turn.
struct InstallCommit: Equatable {
    enum Step: Equatable {
        /// `state.json.tmp`, written and flushed (not yet the state).
        case writeState(sequence: Int64)
        /// A new symlink `name` → `target`.
        case makeLink(String, target: String)
        case rename(String, to: String)
        case syncDirectory
        /// A version directory no link names any more.
        case removeVersion(String)
    }

    static let stateFile = "state.json"
    let steps: [Step]
    /// The index of the switch (`current.new` → `current`) in ``steps``.
    let switchIndex: Int

    /// The plan for making `versions/<sequence>` current, where the app's links name `current` and
    /// `previous` now (either may be absent).
    init(sequence: Int64, current: String?, previous: String?) {
        let target = "versions/\(sequence)"
        var steps: [Step] = [.writeState(sequence: sequence)]
        if let current { steps.append(.makeLink("previous.new", target: current)) }
        steps.append(.makeLink("current.new", target: target))
        // previous first: if the run dies in between, both links still name whole versions.
        if current != nil { steps.append(.rename("previous.new", to: "previous")) }
        steps.append(.rename("current.new", to: "current"))
        switchIndex = steps.count - 1
        steps += [.syncDirectory, .rename(Self.stateFile + ".tmp", to: Self.stateFile), .syncDirectory]
        let kept = current ?? previous
        if let previous, previous != kept, previous != target { steps.append(.removeVersion(previous)) }
        self.steps = steps
    }

    /// Runs the plan in the app directory. A failure before the switch removes what was written and
    /// is thrown (the old version stays active); after the switch it is ignored (recover() finishes).
    func run(on files: some StoreFileSystem) throws(PackageError) {
        for (index, step) in steps.enumerated() {
            do throws(PackageError) {
                try perform(step, on: files)
            } catch {
                guard index <= switchIndex else { continue }
                for leftover in ["previous.new", "current.new", Self.stateFile + ".tmp"] { files.remove(leftover) }
                throw error
            }
        }
    }

    private func perform(_ step: Step, on files: some StoreFileSystem) throws(PackageError) {
        switch step {
        case .writeState(let sequence):
            let data = (try? JSONEncoder().encode(StoreState(trustedSequence: sequence))) ?? Data()
            try files.write(data, to: Self.stateFile + ".tmp")
        case .makeLink(let name, let target): try files.makeLink(name, to: target)
        case .rename(let from, let to): try files.rename(from, to: to)
        case .syncDirectory: files.syncDirectory()
        case .removeVersion(let version): files.remove(version)
        }
    }
}
