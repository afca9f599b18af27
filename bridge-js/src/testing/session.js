// One page's run as native sees it: which framework reports (the first to start, or the one the
// options force), the test that is running, the counts and the failures outside any test. Every
// framework adapter reports through this, so the rules hold for all of them: nothing before
// runStart or after runEnd, exactly one testEnd for every testStart, one run per document.

const STATUSES = ['passed', 'failed', 'skipped', 'todo'];
const SETTLED = Promise.resolve(null);

function createSession(options, reporter) {
  let owner = null;
  let phase = 'idle';  // idle → running → ended, or idle → listed
  let startedAt = 0;
  let current = null;
  let errorSent = false;
  const counts = { passed: 0, failed: 0, skipped: 0, todo: 0 };
  const runFailures = [];

  // Whether `framework` may report the run: the forced one, or else the first one to ask.
  function claim(framework) {
    if (options.framework !== 'auto' && options.framework !== framework) return false;
    if (owner === null && phase === 'idle') owner = framework;
    return owner === framework;
  }

  function reporting(framework) {
    return owner === framework && phase === 'running';
  }

  function runStart(framework, version, total) {
    if (!claim(framework) || phase !== 'idle') return SETTLED;
    phase = 'running';
    startedAt = now();
    return reporter.send({
      event: 'runStart',
      framework: framework,
      version: typeof version === 'string' && version !== '' ? version : null,
      total: typeof total === 'number' && total >= 0 ? total : null,
    });
  }

  // The test that runs now; its console output is attributed to it until its testEnd. Returns
  // the handle to end it with, or null when this framework does not report.
  function testStart(framework, suite, name) {
    if (!reporting(framework)) return null;
    if (current !== null) endOpenTest('the framework started another test before this one ended');
    current = { suite: strings(suite), name: String(name), started: now(), failures: [] };
    reporter.send({ event: 'testStart', name: current.name, suite: current.suite });
    return current;
  }

  // Ends `test`: a handle from testStart, or {suite, name} for a test reported without a start
  // (a skipped one, a hook failure). `failures` are added to those recorded on the handle.
  function testEnd(framework, test, status, duration, failures) {
    if (!reporting(framework) || test === null) return SETTLED;
    const open = test === current;
    if (open) current = null;
    else if (test.ended === true) return SETTLED;
    test.ended = true;
    const all = (test.failures || []).concat(failures || []);
    let outcome = STATUSES.indexOf(status) >= 0 ? status : 'failed';
    if (outcome === 'passed' && all.length > 0) outcome = 'failed';
    counts[outcome] += 1;
    const elapsed = typeof duration === 'number' ? duration : open ? now() - test.started : 0;
    return reporter.send({
      event: 'testEnd',
      name: String(test.name),
      suite: strings(test.suite),
      status: outcome,
      duration: milliseconds(elapsed),
      failures: all,
    });
  }

  function runFailure(framework, item) {
    if (reporting(framework)) runFailures.push(item);
  }

  // `incomplete`: the framework says not every test ran although none failed.
  function runEnd(framework, incomplete) {
    if (!reporting(framework)) return SETTLED;
    endOpenTest('the run ended before this test did');
    return finish(incomplete ? 'incomplete' : null);
  }

  function finish(forced) {
    phase = 'ended';
    if (options.silenceUnloadAfterRun) silenceUnloadHandlers(window);
    const failed = counts.failed > 0 || runFailures.length > 0;
    return reporter.send({
      event: 'runEnd',
      status: forced || (failed ? 'failed' : 'passed'),
      duration: milliseconds(now() - startedAt),
      counts: { passed: counts.passed, failed: counts.failed, skipped: counts.skipped, todo: counts.todo },
      failures: runFailures.slice(),
    });
  }

  function endOpenTest(message) {
    if (current !== null) testEnd(owner, current, 'failed', undefined, [failure('error', message, null)]);
  }

  // List mode: the tests that would run, instead of the run.
  function list(framework, tests) {
    if (!claim(framework) || phase !== 'idle') return SETTLED;
    phase = 'listed';
    return reporter.send({
      event: 'list',
      tests: tests.map(function (test) { return { name: String(test.name), suite: strings(test.suite) }; }),
    });
  }

  // The framework broke before its run started (as far as the adapter can tell); sent once.
  function frameworkError(framework, thrown) {
    if (errorSent || phase !== 'idle' || (framework !== null && options.framework !== 'auto' && options.framework !== framework)) return;
    errorSent = true;
    const details = failureFrom(thrown, 'error');
    reporter.send({ event: 'error', message: details.message, stack: details.stack });
  }

  // The document is going away (navigation, reload, close) in the middle of the run.
  function interrupt() {
    if (phase !== 'running') return;
    // Reported once: on the test that was running, or on the run when it went away between tests.
    if (current !== null) {
      endOpenTest('the page went away while this test was running; the tests after it did not run');
    } else {
      runFailures.push(failure('error', 'the page navigated away or was closed before the run ended', null));
    }
    finish('incomplete');
  }

  return {
    claim: claim,
    reporting: reporting,
    runStart: runStart,
    testStart: testStart,
    testEnd: testEnd,
    runFailure: runFailure,
    runEnd: runEnd,
    list: list,
    frameworkError: frameworkError,
    interrupt: interrupt,
    loaded: function (frameworks) { reporter.send({ event: 'loaded', frameworks: frameworks }); },
    get owner() { return owner; },
    get phase() { return phase; },
    get current() { return current; },
  };
}

function strings(list) {
  return Array.isArray(list) ? list.map(String) : [];
}

// Isolated runs: once the run has ended, the page's own pagehide, unload, beforeunload and
// visibilitychange handlers no longer run. They would run as the runner navigates away, and what
// they write to localStorage can reach WebKit's network process after the runner has cleared the
// page's storage, i.e. be seen by the next page (measured under load: about 1 run in 5). A
// capturing listener on window runs before the page's own listeners for these events (capturing
// listeners come first at the target) and stops them.
const UNLOAD_EVENTS = ['pagehide', 'unload', 'beforeunload', 'visibilitychange'];

function silenceUnloadHandlers(target) {
  const stop = function (event) { event.stopImmediatePropagation(); };
  UNLOAD_EVENTS.forEach(function (type) { target.addEventListener(type, stop, true); });
}
