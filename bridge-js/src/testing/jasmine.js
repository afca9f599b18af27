// Jasmine (4.x; 3.x alike): a reporter added when the run starts (after boot1's, so the page's
// own reporters have drawn a failure before native hears of it); its promises make Jasmine wait
// for the bridge before the first spec and for native's reply after each spec. testTimeout
// becomes jasmine.DEFAULT_TIMEOUT_INTERVAL as soon as jasmine exists. grep joins the page's
// specFilter when Env#execute is called; list mode walks Env#topSuite() instead of executing.
//
// Specs Jasmine excludes (specFilter, fit/fdescribe elsewhere) are not reported, listed or
// counted in runStart's total. Failures of a suite (beforeAll/afterAll) and Jasmine's global
// failures go to the run's failures.

function hookJasmine(jasmine, context) {
  if (!isJasmine(jasmine)) return;
  if (context.options.testTimeout !== null) jasmine.DEFAULT_TIMEOUT_INTERVAL = context.options.testTimeout;
  const env = jasmine.getEnv();
  const excluded = trackJasmineExclusions(jasmine);
  const focused = trackJasmineFocus(env);
  const originalExecute = env.execute;
  env.execute = function execute(runablesToRun) {
    if (!context.session.claim('jasmine')) return originalExecute.apply(this, arguments);
    const specs = jasmineSpecs(env, Array.isArray(runablesToRun) ? runablesToRun : null, focused);
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

// The ids of the specs and suites declared with fit and fdescribe, in declaration order
// (Env#fit and Env#fdescribe return their metadata; the page's globals call them).
function trackJasmineFocus(env) {
  const focused = [];
  ['fit', 'fdescribe'].forEach(function (name) {
    const original = env[name];
    if (typeof original !== 'function') return;
    env[name] = function () {
      const metadata = original.apply(this, arguments);
      if (metadata !== null && typeof metadata === 'object' && metadata.id !== undefined) focused.push(metadata.id);
      return metadata;
    };
  });
  return focused;
}

// id → {suite, name, metadata, runs} for every spec, from the tree of suites; `runs` is false
// for a spec outside the runnables Jasmine picks: the ids given to Env#execute, or else the
// focused ones (`focused`, see focusedRunnables), or else everything.
function jasmineSpecs(env, given, focused) {
  const specs = new Map();
  const chains = new Map();  // id → the ids of the node and of the suites around it
  function walk(node, path, chain) {
    (node.children || []).forEach(function (child) {
      const own = chain.concat([child.id]);
      chains.set(child.id, own);
      if (Array.isArray(child.children)) walk(child, path.concat([String(child.description)]), own);
      else specs.set(child.id, { suite: path, name: String(child.description), metadata: child, chain: own });
    });
  }
  const top = env.topSuite();
  if (top) walk(top, [], [top.id]);
  const runs = given !== null ? new Set(given) : focusedRunnables(focused, chains);
  specs.forEach(function (entry) {
    entry.runs = runs === null || entry.chain.some(function (id) { return runs.has(id); });
  });
  return specs;
}

// As Jasmine's SuiteBuilder keeps them: a focused suite gives way to what is focused inside it.
function focusedRunnables(focused, chains) {
  if (focused.length === 0) return null;
  const runs = new Set(focused);
  focused.forEach(function (id) {
    (chains.get(id) || []).slice(0, -1).forEach(function (outer) { runs.delete(outer); });
  });
  return runs;
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
    if (entry.runs && (typeof filter !== 'function' || filter(entry.metadata))) tests.push({ suite: entry.suite, name: entry.name });
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
