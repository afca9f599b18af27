// `hybrid.test`: HybridShell's own small test API (typed in hybrid.d.ts).
//
// Tests run one at a time in registration order, starting in a microtask after the first
// registration once the bridge is ready. The run ends when `hybrid.test.done()` was called and
// every registered test has finished; without done(), once the window `load` event has fired and
// no test is left. Each testEnd waits for native's reply before the next test starts, so a
// screenshot native takes of a failure shows the page as the test left it.

const DEFAULT_TEST_TIMEOUT = 5000;

function createHybridTests(context) {
  const session = context.session;
  const settings = context.options;
  const includes = context.includes;
  const registered = [];
  const queue = [];
  const modules = [];
  let doneCalled = false;
  let loaded = false;
  let pumping = false;
  let started = false;
  let finished = false;
  let running = null;  // {failures} of the test whose function runs now

  function add(mode, name, fn, testOptions) {
    if (typeof name !== 'string') throw new TypeError('hybrid.test needs a name (a string)');
    if (mode === 'run' && typeof fn !== 'function') throw new TypeError('hybrid.test("' + name + '", fn) needs a function');
    if (finished) {
      console.warn('hybrid.test: "' + name + '" was registered after the run ended; register every test before ' +
        'hybrid.test.done() (or before the load event when done() is not called)');
      return;
    }
    const suite = modules.slice();
    if (!includes(suite, name)) return;
    const timeout = testOptions !== null && typeof testOptions === 'object' ? testOptions.timeout : undefined;
    const entry = { suite: suite, name: name, fn: typeof fn === 'function' ? fn : null, mode: mode, timeout: timeout };
    registered.push(entry);
    queue.push(entry);
    schedule();
  }

  function test(name, fn, testOptions) {
    add('run', name, fn, testOptions);
  }
  test.skip = function skip(name, fn) { add('skip', name, fn); };
  test.todo = function todo(name, fn) { add('todo', name, fn); };
  test.module = function module(name, fn) {
    if (typeof fn !== 'function') throw new TypeError('hybrid.test.module(name, fn) needs a function');
    modules.push(String(name));
    try {
      fn();
    } finally {
      modules.pop();
    }
  };
  test.done = function done() {
    doneCalled = true;
    schedule();
  };

  function schedule() {
    if (pumping || finished) return;
    pumping = true;
    queueMicrotask(function () {
      context.reporter.ready.then(pump).catch(function (error) { setTimeout(function () { throw error; }, 0); });
    });
  }

  async function pump() {
    if (settings.list) return listTests();
    if (!started) {
      started = true;
      await session.runStart('hybrid', bridge.version, doneCalled ? registered.length : null);
    }
    while (queue.length > 0) await run(queue.shift());
    pumping = false;
    if (doneCalled || loaded) {
      finished = true;
      await session.runEnd('hybrid', false);
    }
  }

  function listTests() {
    pumping = false;
    if (!doneCalled && !loaded) return;
    finished = true;
    session.list('hybrid', registered);
  }

  async function run(entry) {
    if (entry.mode === 'skip' || (entry.mode === 'todo' && entry.fn === null)) {
      await session.testEnd('hybrid', { suite: entry.suite, name: entry.name }, entry.mode === 'skip' ? 'skipped' : 'todo', 0, []);
      return;
    }
    const handle = session.testStart('hybrid', entry.suite, entry.name);
    const failures = [];
    running = { failures: failures };
    const begun = now();
    try {
      const value = entry.fn();
      if (value !== null && (typeof value === 'object' || typeof value === 'function') && typeof value.then === 'function') {
        await settleWithin(value, timeoutFor(entry));
      }
    } catch (thrown) {
      failures.push(thrown && thrown.hybridTimeout === true ? failure('error', thrown.message, null) : failureFrom(thrown));
    }
    running = null;
    const status = entry.mode === 'todo' ? 'todo' : failures.length > 0 ? 'failed' : 'passed';
    await session.testEnd('hybrid', handle || { suite: entry.suite, name: entry.name }, status, now() - begun, failures);
  }

  function timeoutFor(entry) {
    if (typeof entry.timeout === 'number' && entry.timeout >= 0) return entry.timeout;
    return settings.testTimeout !== null ? settings.testTimeout : DEFAULT_TEST_TIMEOUT;
  }

  function settleWithin(promise, ms) {
    return new Promise(function (resolve, reject) {
      const timer = ms > 0 && ms < Infinity ? setTimeout(function () {
        reject({ hybridTimeout: true, message: 'test timed out after ' + ms + ' ms (it returned a Promise that did not settle)' });
      }, ms) : null;
      Promise.resolve(promise).then(function (value) {
        clearTimeout(timer);
        resolve(value);
      }, function (reason) {
        clearTimeout(timer);
        reject(reason);
      });
    });
  }

  // Errors nobody caught while a test runs (a throw in its timer, a rejection it did not await)
  // fail that test, as in QUnit and Mocha; between tests they fail the run.
  function onUncaught(thrown) {
    if (running !== null) running.failures.push(failureFrom(thrown, 'error'));
    else session.runFailure('hybrid', failureFrom(thrown, 'error'));
  }

  window.addEventListener('error', guarded(function (event) {
    if (!session.reporting('hybrid') || !isScriptError(event)) return;
    onUncaught(event.error !== undefined && event.error !== null ? event.error : event.message);
  }));
  window.addEventListener('unhandledrejection', guarded(function (event) {
    if (session.reporting('hybrid')) onUncaught(event.reason);
  }));
  window.addEventListener('load', guarded(function () {
    loaded = true;
    if (registered.length > 0 || doneCalled) schedule();
  }));

  return {
    test: test,
    get used() { return registered.length > 0 || doneCalled; },
  };
}

// An uncaught exception, not a resource that failed to load.
function isScriptError(event) {
  return event !== null && typeof event === 'object' && (typeof event.message === 'string' || (event.error !== undefined && event.error !== null));
}
