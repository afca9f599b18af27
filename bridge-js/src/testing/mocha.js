// Mocha: `mocha.run` is wrapped to attach to its Runner's events ('start', 'test', 'fail',
// 'pending', 'test end', 'end'; a retried test stays one test). testTimeout becomes
// mocha.timeout() as soon as mocha exists, before any describe() copies the root's timeout.
// grep prunes the suite tree before the run (Mocha's own grep matches its space-joined titles,
// not our full names); list mode walks the tree and lets Mocha do a dry run.
//
// Hook failures are reported as failed tests: a failing beforeEach of the test that runs fails
// that test (the message starts with the hook's title); any other hook failure, afterEach
// included (Mocha has ended the test by then), is a test of its own, named as Mocha names the
// hook (`"after each" hook for "adds"`), in the hook's suite. Uncaught errors outside any test, and failures of a test after it ended, go to the
// run's failures.

function hookMocha(mocha, context) {
  if (!isMocha(mocha)) return;
  const options = context.options;
  if (options.testTimeout !== null && typeof mocha.timeout === 'function') mocha.timeout(options.testTimeout);
  const originalRun = mocha.run;
  mocha.run = function run() {
    const self = this;
    const args = arguments;
    const start = function () { return originalRun.apply(self, args); };
    if (!context.session.claim('mocha')) return start();
    if (options.grep !== null) pruneMochaSuite(mocha.suite, [], context.includes);
    if (options.list) return listMocha(mocha, context, start);
    let runner;
    try {
      runner = startWhenReady(mocha, context.reporter, start);
    } catch (error) {
      context.session.frameworkError('mocha', error);
      throw error;
    }
    if (runner !== null && typeof runner === 'object' && typeof runner.on === 'function') attachMochaRunner(runner, mocha, context);
    return runner;
  };
}

function isMocha(value) {
  return value !== null && typeof value === 'object' && typeof value.run === 'function' &&
    value.suite !== null && typeof value.suite === 'object';
}

// Mocha starts its run in Runner.immediately (a timer in browsers). Before the bridge is ready,
// that first step waits for it, so test events and console messages leave in order.
function startWhenReady(mocha, reporter, start) {
  const Runner = mocha.constructor && mocha.constructor.Runner;
  if (reporter.isReady || !Runner || typeof Runner.immediately !== 'function') return start();
  const immediately = Runner.immediately;
  let deferred = false;
  Runner.immediately = function (callback) {
    Runner.immediately = immediately;
    deferred = true;
    reporter.ready.then(function () { immediately(callback); });
  };
  try {
    return start();
  } finally {
    if (!deferred) Runner.immediately = immediately;
  }
}

function listMocha(mocha, context, start) {
  const suite = mocha.suite;
  if (typeof suite.hasOnly === 'function' && suite.hasOnly()) suite.filterOnly();
  context.session.list('mocha', collectMochaTests(suite, []));
  // A dry run keeps mocha.run's return value and callback working without running a test.
  if (typeof mocha.dryRun === 'function') mocha.dryRun(true);
  else pruneMochaSuite(suite, [], function () { return false; });
  return start();
}

function pruneMochaSuite(suite, path, includes) {
  const keep = function (test) { return includes(path, String(test.title)); };
  if (Array.isArray(suite.tests)) suite.tests = suite.tests.filter(keep);
  if (Array.isArray(suite._onlyTests)) suite._onlyTests = suite._onlyTests.filter(keep);
  (suite.suites || []).forEach(function (child) { pruneMochaSuite(child, path.concat([String(child.title)]), includes); });
}

function collectMochaTests(suite, path) {
  let tests = (suite.tests || []).map(function (test) { return { suite: path, name: String(test.title) }; });
  (suite.suites || []).forEach(function (child) {
    tests = tests.concat(collectMochaTests(child, path.concat([String(child.title)])));
  });
  return tests;
}

function countMochaTests(suite) {
  return (suite.tests || []).length + (suite.suites || []).reduce(function (sum, child) { return sum + countMochaTests(child); }, 0);
}

function mochaSuitePath(suite) {
  const path = [];
  for (let level = suite; level && !level.root; level = level.parent) path.unshift(String(level.title));
  return path;
}

function attachMochaRunner(runner, mocha, context) {
  const session = context.session;
  let open = null;  // {handle, test}: the test Mocha runs now (the first attempt of a retried one)

  function origin(test) {
    const first = typeof test.retriedTest === 'function' ? test.retriedTest() : null;
    return first || test;
  }

  function endOpen(status, duration) {
    const ended = open;
    open = null;
    session.testEnd('mocha', ended.handle, status, duration);
  }

  runner.on('start', guarded(function () {
    session.runStart('mocha', mocha.version, countMochaTests(runner.suite || mocha.suite));
  }));

  runner.on('test', guarded(function (test) {
    if (open !== null && open.test === origin(test)) return;  // the next attempt of a retried test
    const handle = session.testStart('mocha', mochaSuitePath(test.parent), test.title);
    open = handle === null ? null : { handle: handle, test: origin(test) };
  }));

  // Ahead of the page's reporters: Mocha's base reporter replaces err.actual and err.expected
  // with its own multi-line strings for its diffs.
  const first = typeof runner.prependListener === 'function' ? 'prependListener' : 'on';
  runner[first]('fail', guarded(function (runnable, error) {
    const details = failureFrom(error);
    if (runnable.type === 'hook') return hookFailed(runnable, details);
    if (open !== null && open.test === origin(runnable)) return void open.handle.failures.push(details);
    const where = runnable.type === 'test' ? mochaSuitePath(runnable.parent).concat([String(runnable.title)]).join(SEPARATOR) + ': ' : '';
    details.message = where + details.message;
    session.runFailure('mocha', details);
  }));

  function hookFailed(hook, details) {
    const title = String(hook.title);
    const kind = String(hook.originalTitle || hook.title);
    if (open !== null && (kind.indexOf('"before each"') === 0 || kind.indexOf('"after each"') === 0)) {
      // Mocha emits no 'test end' for a test whose beforeEach failed.
      details.message = title + ': ' + details.message;
      open.handle.failures.push(details);
      return endOpen('failed', undefined);
    }
    const handle = session.testStart('mocha', mochaSuitePath(hook.parent), title);
    session.testEnd('mocha', handle, 'failed', hook.duration, [details]);
  }

  runner.on('test end', guarded(function (test) {
    const pending = typeof test.isPending === 'function' ? test.isPending() : test.pending === true;
    if (open !== null && open.test === origin(test)) {
      return endOpen(test.state === 'failed' ? 'failed' : pending ? 'skipped' : 'passed', test.duration);
    }
    if (pending) session.testEnd('mocha', { suite: mochaSuitePath(test.parent), name: String(test.title) }, 'skipped', 0, []);
  }));

  runner.on('end', guarded(function () {
    session.runEnd('mocha', false);
  }));
}
