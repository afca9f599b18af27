#!/usr/bin/env bash
# One `swift test` pass (arguments are passed on). Tests that fail are run once more, alone and
# serially: on a loaded 2-core CI machine a real-WebKit test can miss a deadline. A test that passes
# only on the rerun is reported as FLAKY (and the pass stands); one that fails again fails the run.
# Either way the failures are repeated at the end, where a CI log's tail shows them.
#
# No pass can outlive its time limit (SWIFT_TEST_LIMIT seconds, default 600; a whole quiet pass
# takes 2-4 minutes): just before the limit the stacks of the test process's loop thread and of
# its WebKit processes are printed, then the pass and every process it started are killed and the
# tests that had started and not ended are named. A crash names them too, after the crashed
# thread's backtrace. Either way the tests that did not pass run once more in a fresh process. A
# hang fails the run only if that pass fails too; a crash fails it always. The last line counts
# the passed, flaky, hung and crashed.
set -uo pipefail
limit=${SWIFT_TEST_LIMIT:-600}
# Why only the crashed thread: a crash in a process hosting dozens of web views made Swift's
# backtracer list ~150 WebKit threads, and that CI run was still printing them when its 90 minutes
# ran out. The crashed thread says where; the unfinished tests below say which test. Precise
# (DWARF) unwinding, because WebKit's libraries have no frame pointers: a crash inside
# JavaScriptCore printed one frame and stopped. The mentioned images' load addresses turn a frame
# without a symbol into an offset in its library.
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=yes,interactive=no,threads=crashed,registers=none,images=mentioned,unwind=precise}
# At most 4 tests at a time. Unbounded, Swift Testing started every suite at once: ~140 web
# processes within the first 30 s of the parallel pass, a load of ~45 on two cores, and the
# tests whose waits fell in that storm timed out together (the "main-loop stall"). With 4 the
# pass takes as long (~2 min: a few long tests set it) and peaks at 4 web processes.
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-4}
log=$(mktemp)
trap 'rm -f "$log" "$log.rerun"' EXIT

# `timeout` runs the pass in its own process group and signals the whole group at the limit; a
# watchdog prints where the test process is stuck 15 s before that.
limited() {
    timeout --kill-after=20 "$limit" swift test --skip-build "$@" &
    local runner=$!
    ( trap 'kill "$nap" 2>/dev/null; exit 0' TERM
      sleep $((limit > 30 ? limit - 15 : limit)) & nap=$!
      wait "$nap" && stacks ) &
    local watchdog=$!
    wait "$runner"
    local status=$?
    kill "$watchdog" 2>/dev/null
    wait "$watchdog" 2>/dev/null
    return "$status"
}

# Where a stuck pass is: the loop thread of the newest test process, and the first frames of each
# WebKit process it started (a CI run once had every in-process load stall at "progress 0.1" from
# the pass's start, and its log could not say why). gdb is on the CI machines; without it, nothing.
stacks() {
    command -v gdb >/dev/null || return 0
    local test=$(pgrep -n -f 'PackageTests\.xctest') child
    [ -n "$test" ] || return 0
    echo "==== stacks of the test process $test (loop thread) and its WebKit processes, at the time limit ===="
    gdb -p "$test" -batch -ex 'thread apply all bt 14' 2>/dev/null |
        awk '/^Thread /{show = /HybridShellLoo/} show' | head -40
    for child in $(pgrep -P "$test"); do
        echo "---- $(cat /proc/"$child"/comm 2>/dev/null) $child"
        gdb -p "$child" -batch -ex 'bt 12' 2>/dev/null | grep -E '^#' | head -12
    done
}

# The tests of a log that started and neither passed, failed nor were skipped.
unfinished() {
    comm -23 <(grep -aoE '◇ Test [A-Za-z0-9_]+\(' "$1" | sort -u) \
             <(grep -aoE '(✔|✘|➜) Test [A-Za-z0-9_]+\(' "$1" | sed -E 's/^(✔|✘|➜)/◇/' | sort -u) |
        sed -E 's/^◇ Test //; s/\($//' | paste -sd' '
}

# Says why a pass ended without a verdict (time limit or crash) and which tests it was in.
ended_early() { # status log
    case "$1" in
        124|137) echo "==== swift test did not end within ${limit} s (SWIFT_TEST_LIMIT); killed. ====" ;;
        *) echo "==== swift test ended with status $1 before reporting a verdict (a crash?) ====" ;;
    esac
    echo "==== tests that started and did not end: $(unfinished "$2") ===="
}

# How many tests a log says passed.
passed_count() { grep -aoE '✔ Test [A-Za-z0-9_]+\(' "$1" | sort -u | wc -l; }

limited "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" = 0 ]; then
    echo "==== summary: $(passed_count "$log") passed, 0 flaky, 0 hung, 0 crashed ===="
    exit 0
fi

failures() { grep -aE '✘|recorded an issue|Expectation failed|Caught error|fatal error|Fatal error|💣|Crash|crashed' "$1" | head -80; }
if ! grep -aqE 'Test run with [0-9]+ tests?' "$log"; then
    ended_early "$status" "$log"
    failures "$log"
    # A crash or a hang ends the whole pass, so most of its tests never ran. They run once more,
    # in a fresh process (the ones that passed are skipped); the crash or hang fails the run only
    # if that pass fails too, and is named at the end either way, like a flaky test.
    what=CRASHED
    case "$status" in 124|137) grep -aq 'Program crashed' "$log" || what=HUNG ;; esac
    passed=$(grep -aoE '✔ Test [A-Za-z0-9_]+\(' "$log" | sed -E 's/^✔ Test //; s/\($//' | sort -u | paste -sd'|')
    echo "==== running the tests that did not pass once more ===="
    limited "$@" ${passed:+--skip "/($passed)\\("} 2>&1 | tee "$log.rerun"
    rerun=${PIPESTATUS[0]}
    echo "==== the first pass $(echo $what | tr A-Z a-z) in: $(unfinished "$log") ===="
    failures "$log"
    if [ "$rerun" = 0 ] && [ "$what" = HUNG ]; then
        echo "==== HUNG ONCE (the rest passed on the second pass): $(unfinished "$log") ===="
        echo "==== summary: $(passed_count "$log.rerun") passed on the second pass, 0 flaky, 1 hung, 0 crashed ===="
        exit 0
    fi
    if [ "$rerun" = 0 ]; then
        # A crash is the shell's own bug, not the load of a CI machine: the run fails even when
        # every test passes on the second pass (an intermittent crash must not land green).
        echo "==== CRASHED (the rest passed on the second pass; a crash fails the run): $(unfinished "$log") ===="
        echo "==== summary: $(passed_count "$log.rerun") passed on the second pass, 0 flaky, 0 hung, 1 crashed ===="
        exit 1
    fi
    grep -aqE 'Test run with [0-9]+ tests?' "$log.rerun" || ended_early "$rerun" "$log.rerun"
    echo "==== the second pass failed too: ===="
    failures "$log.rerun"
    exit 1
fi
names=$(grep -aoE '✘ Test [A-Za-z0-9_]+\(' "$log" | sed -E 's/^✘ Test //; s/\($//' | sort -u)
if [ -z "$names" ]; then
    echo "==== swift test failed (exit $status) without a failing test to rerun; the failures: ===="
    failures "$log"
    exit "$status"
fi
filter=$(echo "$names" | sed -E 's|.*|/&\\(|' | paste -sd'|')
echo "==== rerunning the failed tests once, serially: $(echo $names) ===="
limited --no-parallel --filter "$filter" 2>&1 | tee "$log.rerun"
rerun=${PIPESTATUS[0]}
echo "==== the first run's failures: ===="
failures "$log"
if [ "$rerun" = 0 ]; then
    echo "==== FLAKY (failed, then passed on the rerun): $(echo $names) ===="
    echo "==== summary: $(passed_count "$log") passed, $(echo "$names" | wc -l) flaky, 0 hung, 0 crashed ===="
    exit 0
fi
grep -aqE 'Test run with [0-9]+ tests?' "$log.rerun" || ended_early "$rerun" "$log.rerun"
echo "==== failed again on the rerun: ===="
failures "$log.rerun"
exit 1
