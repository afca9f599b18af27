// The options object native passes (README, "Test adapter"), read defensively: anything missing
// or malformed falls back to its default instead of breaking the page.

function readOptions(given) {
  const source = given !== null && typeof given === 'object' ? given : {};
  const framework = FRAMEWORKS.indexOf(source.framework) >= 0 ? source.framework : 'auto';
  const timeout = source.testTimeout;
  return {
    framework: framework,
    grep: readGrep(source.grep),
    grepInvert: source.grepInvert === true,
    list: source.list === true,
    testTimeout: typeof timeout === 'number' && timeout > 0 && timeout < Infinity ? timeout : null,
    handler: typeof source.handler === 'string' && source.handler !== '' ? source.handler : 'hybridshell.test',
    silenceUnloadAfterRun: source.silenceUnloadAfterRun === true,
  };
}

// A pattern JavaScript refuses matches nothing (and install reports it as an `error` event):
// running everything instead would hide the mistake. `g` and `y` are dropped, they make `test`
// stateful.
function readGrep(grep) {
  if (grep === null || typeof grep !== 'object' || typeof grep.source !== 'string') return null;
  try {
    return new RegExp(grep.source, typeof grep.flags === 'string' ? grep.flags.replace(/[gy]/g, '') : '');
  } catch (error) {
    return { invalid: String(error && error.message), test: function () { return false; } };
  }
}

// Whether a test is run and reported: its full name (suites and name joined with " › ")
// matches `grep`, or does not when `grepInvert`.
function createFilter(options) {
  return function includes(suite, name) {
    if (options.grep === null) return true;
    if (options.grep.invalid !== undefined) return false;
    return options.grep.test(fullName(suite, name)) !== options.grepInvert;
  };
}

function fullName(suite, name) {
  return suite.concat([name]).join(SEPARATOR);
}
