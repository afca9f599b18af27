// Jasmine (4.x; 3.x alike): a reporter added when the run starts (after boot1's, so the page's
// own reporters have drawn a failure before native hears of it); its promises make Jasmine wait
// for the bridge before the first spec and for native's reply after each spec. testTimeout
// becomes jasmine.DEFAULT_TIMEOUT_INTERVAL as soon as jasmine exists. grep joins the page's
// specFilter when Env#execute is called; list mode walks Env#topSuite() instead of executing.
//
// Specs Jasmine excludes (specFilter, fit/fdescribe elsewhere) are not reported. Failures of a
// suite (beforeAll/afterAll) and Jasmine's global failures go to the run's failures.

function hookJasmine(jasmine, context) {
  if (!isJasmine(jasmine)) return;
  if (context.options.testTimeout !== null) jasmine.DEFAULT_TIMEOUT_INTERVAL = context.options.testTimeout;
  const env = jasmine.getEnv();
  const excluded = trackJasmineExclusions(jasmine);
  const originalExecute = env.execute;
  env.execute = function execute() {
    if (!context.session.claim('jasmine')) return originalExecute.apply(this, arguments);
    const specs = jasmineSpecs(env);
    if (context.options.grep !== null) addJasmineFilter(env, specs, context.includes);
    if (context.options.list) {
      context.session.list('jasmine', jasmineIncluded(env, specs));
      return Promise.resolve();
    }
    env.addReporter(jasmineReporter(jasmine, env, context, specs, excluded));
    try {
      return originalExecute.apply(this, arguments);
    } catch (error) {
      context.session.frameworkError('jasmine', error);
      throw error;
    }
  };
}

function isJasmine(value) {
  return value !== null && typeof value === 'object' && typeof value.getEnv === 'function';
}

// Jasmine reports excluded specs too (status "excluded", after a specStarted): Spec#execute is
// told which ones, before their start is reported.
function trackJasmineExclusions(jasmine) {
  const excluded = new Set();
  const prototype = jasmine.Spec && jasmine.Spec.prototype;
  if (!prototype || typeof prototype.execute !== 'function') return excluded;
  const execute = prototype.execute;
  prototype.execute = function () {
    // 4.x: (queueRunnerFactory, onComplete, excluded, …); 3.x: (onComplete, excluded, …)
    const flag = typeof arguments[1] === 'function' ? arguments[2] : arguments[1];
    if (flag === true) excluded.add(this.id);
    else excluded.delete(this.id);
    return execute.apply(this, arguments);
  };
  return excluded;
}

// id → {suite, name, metadata} for every spec, from the tree of suites.
function jasmineSpecs(env) {
  const specs = new Map();
  function walk(node, path) {
    (node.children || []).forEach(function (child) {
      if (Array.isArray(child.children)) walk(child, path.concat([String(child.description)]));
      else specs.set(child.id, { suite: path, name: String(child.description), metadata: child });
    });
  }
  const top = env.topSuite();
  if (top) walk(top, []);
  return specs;
}

function addJasmineFilter(env, specs, includes) {
  const previous = typeof env.configuration === 'function' ? env.configuration().specFilter : null;
  env.configure({
    specFilter: function (spec) {
      const entry = specs.get(spec.id);
      if (entry && !includes(entry.suite, entry.name)) return false;
      return typeof previous === 'function' ? previous(spec) : true;
    },
  });
}

function jasmineIncluded(env, specs) {
  const filter = typeof env.configuration === 'function' ? env.configuration().specFilter : null;
  const tests = [];
  specs.forEach(function (entry) {
    if (typeof filter !== 'function' || filter(entry.metadata)) tests.push({ suite: entry.suite, name: entry.name });
  });
  return tests;
}

function jasmineReporter(jasmine, env, context, specs, excluded) {
  const session = context.session;
  const suites = [];  // descriptions of the suites running now, for specs defined after execute()
  let test = null;

  function pathOf(result) {
    const entry = specs.get(result.id);
    return entry ? entry.suite : suites.slice();
  }

  return {
    jasmineStarted: function () {
      return context.reporter.ready.then(function () {
        return session.runStart('jasmine', jasmine.version, jasmineIncluded(env, specs).length);
      });
    },
    suiteStarted: guarded(function (result) {
      suites.push(String(result.description));
    }),
    suiteDone: guarded(function (result) {
      const where = suites.join(SEPARATOR);
      suites.pop();
      (result.failedExpectations || []).forEach(function (expectation) {
        const details = jasmineFailure(expectation);
        details.message = 'in "' + where + '": ' + details.message;
        session.runFailure('jasmine', details);
      });
    }),
    specStarted: guarded(function (result) {
      test = excluded.has(result.id) ? null : session.testStart('jasmine', pathOf(result), result.description);
    }),
    specDone: guarded(function (result) {
      const ended = test;
      test = null;
      if (result.status === 'excluded' || excluded.has(result.id)) return undefined;
      const status = result.status === 'pending' ? 'skipped' : result.status === 'failed' ? 'failed' : 'passed';
      const failures = (result.failedExpectations || []).map(jasmineFailure);
      return session.testEnd('jasmine', ended || { suite: pathOf(result), name: String(result.description) }, status, result.duration, failures);
    }),
    jasmineDone: guarded(function (result) {
      (result.failedExpectations || []).forEach(function (expectation) {
        session.runFailure('jasmine', jasmineFailure(expectation));
      });
      const incomplete = result.overallStatus === 'incomplete' && result.incompleteReason !== 'No specs found';
      return session.runEnd('jasmine', incomplete);
    }),
  };
}

// A failed matcher has a matcherName; a thrown error, a timeout, fail() and a global error do not.
function jasmineFailure(expectation) {
  const assertion = typeof expectation.matcherName === 'string' && expectation.matcherName !== '';
  return failure(assertion ? 'assertion' : 'error', String(expectation.message), expectation.stack,
    assertion ? formatValue(expectation.actual) : null, assertion ? formatValue(expectation.expected) : null);
}
