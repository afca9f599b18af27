// QUnit: 1.x through its logging callbacks (begin, testStart, log, testDone, done); 2.x through
// QUnit.on (runStart, testStart, testEnd, runEnd) when it has that. The registration functions
// are wrapped for grep and list mode (QUnit's own filter matches "module: test", not our full
// names), and testTimeout becomes QUnit.config.testTimeout.

function hookQUnit(QUnit, context) {
  if (!isQUnit(QUnit)) return;
  const config = QUnit.config || {};
  if (context.options.testTimeout !== null) config.testTimeout = context.options.testTimeout;
  const listed = wrapQUnitRegistration(QUnit, context);
  if (typeof QUnit.on === 'function') hookQUnitEvents(QUnit, context, listed);
  else hookQUnitCallbacks(QUnit, context, listed);
}

function isQUnit(value) {
  return value !== null && (typeof value === 'object' || typeof value === 'function') &&
    typeof value.test === 'function' && typeof value.module === 'function';
}

// Wraps QUnit.test/skip/only/todo (and the global `test` QUnit 1.x exports) so that tests the
// grep leaves out are never registered; in list mode none is, they are only recorded (and, as in
// QUnit, the first `only` drops every other test). Only then: the wrapper is one more stack
// frame, and QUnit takes a test's source location from the stack.
function wrapQUnitRegistration(QUnit, context) {
  const listed = [];
  let focused = false;
  if (context.options.grep === null && !context.options.list) return listed;
  ['test', 'skip', 'only', 'todo'].forEach(function (kind) {
    const original = QUnit[kind];
    if (typeof original !== 'function') return;
    const wrapped = function (name) {
      // QUnit's own "global failure" test (an uncaught error between tests) always runs.
      const internal = Array.prototype.some.call(arguments, function (arg) { return typeof arg === 'function' && arg.validTest === true; });
      if (!internal) {
        const suite = qunitModulePath(QUnit.config && QUnit.config.currentModule);
        if (!context.includes(suite, String(name))) return undefined;
        if (context.options.list) {
          if (focused) return undefined;
          if (kind === 'only') {
            focused = true;
            listed.length = 0;
          }
          listed.push({ suite: suite, name: String(name) });
          return undefined;
        }
      }
      return original.apply(this, arguments);
    };
    Object.keys(original).forEach(function (key) { wrapped[key] = original[key]; });
    QUnit[kind] = wrapped;
    if (window[kind] === original) window[kind] = wrapped;
  });
  return listed;
}

// QUnit module names are "outer > inner"; each level's own name is what follows its parent's.
function qunitModulePath(module) {
  const path = [];
  for (let level = module; level; level = level.parentModule) {
    let name = String(level.name === undefined || level.name === null ? '' : level.name);
    const parent = level.parentModule;
    if (parent && parent.name && name.indexOf(parent.name + ' > ') === 0) name = name.slice(parent.name.length + 3);
    path.unshift(name);
  }
  return path.filter(function (name) { return name !== ''; });
}

function hookQUnitCallbacks(QUnit, context, listed) {
  const session = context.session;
  let test = null;

  QUnit.begin(guarded(function (details) {
    if (context.options.list) return void session.list('qunit', listed);
    session.runStart('qunit', QUnit.version, details && details.totalTests);
  }));

  QUnit.testStart(guarded(function (details) {
    const running = QUnit.config.current;
    const suite = running && running.module ? qunitModulePath(running.module) : splitModuleName(details.module);
    test = session.testStart('qunit', suite, details.name);
    // Before the bridge is ready the events wait in its queue while console messages do not:
    // hold the first test (QUnit 1.x semaphores) until they can leave in order.
    if (test !== null && !context.reporter.isReady && typeof QUnit.stop === 'function' && running) {
      QUnit.stop();
      context.reporter.ready.then(function () { QUnit.start(); });
    }
  }));

  QUnit.log(guarded(function (details) {
    if (test === null || details.result) return;
    test.failures.push(qunitFailure(details, hasOwn.call(details, 'negative')));
  }));

  QUnit.testDone(guarded(function (details) {
    const status = details.skipped ? 'skipped' : details.todo ? 'todo' : details.failed > 0 ? 'failed' : 'passed';
    const ended = test;
    test = null;
    if (ended !== null) session.testEnd('qunit', ended, status, details.runtime);
  }));

  QUnit.done(guarded(function () {
    session.runEnd('qunit', false);
  }));
}

// QUnit 2.2 and later: the js-reporters events, whose testEnd carries everything.
function hookQUnitEvents(QUnit, context, listed) {
  const session = context.session;
  let test = null;
  // QUnit 2 waits for a Promise a begin callback returns: the run starts once the bridge is ready.
  if (typeof QUnit.begin === 'function') QUnit.begin(function () { return context.reporter.ready; });

  QUnit.on('runStart', guarded(function (details) {
    if (context.options.list) return void session.list('qunit', listed);
    session.runStart('qunit', QUnit.version, details && details.testCounts ? details.testCounts.total : null);
  }));
  QUnit.on('testStart', guarded(function (details) {
    test = session.testStart('qunit', suiteOfFullName(details), details.name);
  }));
  QUnit.on('testEnd', guarded(function (details) {
    const ended = test !== null ? test : { suite: suiteOfFullName(details), name: details.name };
    test = null;
    const failures = (details.errors || []).map(function (error) {
      return qunitFailure(error, error.expected !== undefined || error.actual !== undefined);
    });
    session.testEnd('qunit', ended, details.status, details.runtime, failures);
  }));
  QUnit.on('runEnd', guarded(function () {
    session.runEnd('qunit', false);
  }));
}

function suiteOfFullName(details) {
  return Array.isArray(details.fullName) ? details.fullName.slice(0, -1) : splitModuleName(details.suiteName);
}

function splitModuleName(name) {
  return typeof name === 'string' && name !== '' ? name.split(' > ') : [];
}

// A failed assertion (assert.equal …) has actual and expected; QUnit's own failures (an
// exception, a rejected Promise, a timeout, a wrong assertion count) are errors.
function qunitFailure(details, assertion) {
  const message = typeof details.message === 'string' && details.message !== '' ? details.message : 'failed';
  const stack = typeof details.source === 'string' ? details.source : details.stack;
  return assertion
    ? failure('assertion', message, stack, formatValue(details.actual), formatValue(details.expected))
    : failure('error', message, stack, null, null);
}
