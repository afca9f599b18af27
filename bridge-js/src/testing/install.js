// Start-up: hooks for the frameworks the options allow, the `hybrid.test` API, the `loaded`
// event and the end of the document.

function install() {
  const settings = readOptions(options);
  const reporter = createReporter(bridge, settings.handler);
  const session = createSession(settings, reporter);
  const context = { options: settings, reporter: reporter, session: session, includes: createFilter(settings), scripts: [] };
  const wanted = function (framework) { return settings.framework === 'auto' || settings.framework === framework; };

  if (settings.grep !== null && settings.grep.invalid !== undefined) {
    session.frameworkError(null, new SyntaxError('the grep pattern is not a valid JavaScript RegExp: ' + settings.grep.invalid));
  }
  hookGlobal(context, 'qunit', 'QUnit', hookQUnit, wanted);
  hookGlobal(context, 'mocha', 'mocha', hookMocha, wanted);
  hookGlobal(context, 'jasmine', 'jasmine', hookJasmine, wanted);
  watchFrameworkErrors(context);
  // Registered before the hybrid tests' own load listener: `loaded` comes before their runEnd.
  window.addEventListener('load', guarded(function () { session.loaded(presentFrameworks(tests)); }));
  const tests = wanted('hybrid') ? createHybridTests(context) : null;
  if (tests !== null) installTestApi(tests.test, createAssert());
  bridge.on('unload', guarded(function () { session.interrupt(); }));
}

function hookGlobal(context, framework, name, hook, wanted) {
  if (!wanted(framework)) return;
  whenGlobal(name, guarded(function (value, script) {
    if (script !== null && typeof script.src === 'string' && script.src !== '') context.scripts.push(script.src);
    hook(value, context);
  }));
}

function presentFrameworks(tests) {
  const present = [];
  if (isQUnit(window.QUnit)) present.push('qunit');
  if (isMocha(window.mocha)) present.push('mocha');
  if (isJasmine(window.jasmine)) present.push('jasmine');
  if (tests !== null && tests.used) present.push('hybrid');
  return present;
}

// An uncaught error thrown by a framework's own script before any run started (a broken or
// misconfigured framework) is reported as `error`; errors in the page's code are not.
const FRAMEWORK_FILE = /\/(qunit|mocha|jasmine|jasmine-html|boot0|boot1)([-.][\w.-]*)?\.js(?=[?#:]|$)/i;

function watchFrameworkErrors(context) {
  window.addEventListener('error', guarded(function (event) {
    if (context.session.phase !== 'idle' || !isScriptError(event)) return;
    const stack = read(event.error, 'stack');
    const firstFrame = typeof stack === 'string' ? stack.split('\n')[0] : '';
    const fromFramework = [event.filename, firstFrame].some(function (where) {
      if (typeof where !== 'string' || where === '') return false;
      return FRAMEWORK_FILE.test(where) || context.scripts.some(function (src) { return where.indexOf(src) >= 0; });
    });
    if (fromFramework) context.session.frameworkError(null, event.error !== undefined && event.error !== null ? event.error : event.message);
  }));
}

// `hybrid` is frozen; the test API comes with a copy that has `test` and `assert` too (and the
// internal flush hook), put in its place before any page script runs.
function installTestApi(test, assert) {
  const api = {};
  Object.keys(bridge).forEach(function (key) { api[key] = bridge[key]; });
  api.test = test;
  api.assert = assert;
  const flush = bridge[Symbol.for('hybridshell.flush')];
  if (typeof flush === 'function') Object.defineProperty(api, Symbol.for('hybridshell.flush'), { value: flush });
  try {
    // Removed first: redefining a global in place is not seen by every engine's global object
    // (Node 18's vm contexts, where the adapter's own tests run, keep the old value).
    delete window.hybrid;
    Object.defineProperty(window, 'hybrid', { value: Object.freeze(api), enumerable: true, configurable: true });
  } catch (error) {
    console.warn('hybridshell test: could not add hybrid.test: ' + error.message);
  }
}
