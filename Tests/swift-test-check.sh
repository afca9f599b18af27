#!/usr/bin/env bash
# Checks Tests/swift-test.sh itself: a pass whose test process crashes must fail, even though the
# crashing test passes when the pass runs it a second time.
set -uo pipefail
cd "$(dirname "$0")/.."
marker=$(mktemp -u)
trap 'rm -f "$marker"' EXIT
out=$(HYBRIDSHELL_CRASH_PROBE="$marker" SWIFT_TEST_LIMIT=120 bash Tests/swift-test.sh --filter CrashProbeTests 2>&1)
status=$?
if [ "$status" = 0 ]; then
    echo "$out" | tail -20
    echo "swift-test-check: a crashing pass exited 0; a crash must fail the run"
    exit 1
fi
if ! echo "$out" | grep -q 'CRASHED'; then
    echo "$out" | tail -20
    echo "swift-test-check: the crashing pass failed without saying CRASHED"
    exit 1
fi
echo "swift-test-check: a crashing pass fails (exit $status) and says CRASHED"
