#!/usr/bin/env bash
# One `swift test` pass (arguments are passed on). Tests that fail are run once more, alone and
# serially: on a loaded 2-core CI machine a real-WebKit test can miss a deadline. A test that passes
# only on the rerun is reported as FLAKY (and the pass stands); one that fails again fails the run.
# Either way the failures are repeated at the end, where a CI log's tail shows them.
set -uo pipefail
log=$(mktemp)
trap 'rm -f "$log" "$log.rerun"' EXIT
swift test --skip-build "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
[ "$status" = 0 ] && exit 0

failures() { grep -aE '✘|recorded an issue|Expectation failed|Caught error|fatal error|Fatal error' "$1" | head -80; }
names=$(grep -aoE '✘ Test [A-Za-z0-9_]+\(' "$log" | sed -E 's/^✘ Test //; s/\($//' | sort -u)
if [ -z "$names" ]; then
    echo "==== swift test failed (exit $status) without a failing test to rerun; the failures: ===="
    failures "$log"
    exit "$status"
fi
filter=$(echo "$names" | sed -E 's|.*|/&\\(|' | paste -sd'|')
echo "==== rerunning the failed tests once, serially: $(echo $names) ===="
swift test --skip-build --no-parallel --filter "$filter" 2>&1 | tee "$log.rerun"
rerun=${PIPESTATUS[0]}
echo "==== the first run's failures: ===="
failures "$log"
if [ "$rerun" = 0 ]; then
    echo "==== FLAKY (failed, then passed on the rerun): $(echo $names) ===="
    exit 0
fi
echo "==== failed again on the rerun: ===="
failures "$log.rerun"
exit 1
