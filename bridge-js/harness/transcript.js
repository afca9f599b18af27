// Reading a test page's transcript (test-page.js): one line per reporter event or console
// message for exact-sequence assertions, and the rules of the reporter protocol every run must
// keep, whatever the framework.
'use strict';

const SEPARATOR = ' \u203a ';
const STATUSES = ['passed', 'failed', 'skipped', 'todo'];
const KINDS = ['assertion', 'error'];

function fullName(event) {
  return [...event.suite, event.name].join(SEPARATOR);
}

// The transcript as short lines, in order:
//   loaded qunit | runStart qunit 6 | start math › adds | end math › adds: passed
//   runEnd failed 3/2/1/0 (passed/failed/skipped/todo, then run failures when there are some)
//   list 4 | error <message> | console.log <text>
function outline(env) {
  return env.transcript.map((entry) => {
    if (entry.kind === 'console') return `console.${entry.level} ${entry.text}`;
    switch (entry.event) {
      case 'loaded': return `loaded ${entry.frameworks.join(',')}`;
      case 'runStart': return `runStart ${entry.framework} ${entry.total}`;
      case 'testStart': return `start ${fullName(entry)}`;
      case 'testEnd': return `end ${fullName(entry)}: ${entry.status}`;
      case 'runEnd': {
        const { passed, failed, skipped, todo } = entry.counts;
        const failures = entry.failures.length > 0 ? ` +${entry.failures.length} run failures` : '';
        return `runEnd ${entry.status} ${passed}/${failed}/${skipped}/${todo}${failures}`;
      }
      case 'list': return `list ${entry.tests.length}`;
      case 'error': return `error ${entry.message}`;
      default: return `${entry.event} ?`;
    }
  });
}

// What in the transcript breaks the reporter protocol (empty when nothing does): nothing before
// runStart or after runEnd, one runStart and one runEnd, every testStart answered by its testEnd
// before anything else starts, well-formed failures, and runEnd counts that add up.
function protocolProblems(env) {
  const problems = [];
  const events = env.events().filter((event) => event.event !== 'loaded' && event.event !== 'error');
  const starts = events.filter((event) => event.event === 'runStart');
  const ends = events.filter((event) => event.event === 'runEnd');
  if (events.some((event) => event.event === 'list')) {
    if (events.length !== 1) problems.push(`list mode sent ${events.map((event) => event.event).join(', ')}`);
    return problems;
  }
  if (starts.length !== 1 || events[0] !== starts[0]) problems.push('runStart must come first, once');
  if (ends.length !== 1 || events[events.length - 1] !== ends[0]) problems.push('runEnd must come last, once');
  const tally = { passed: 0, failed: 0, skipped: 0, todo: 0 };
  let open = null;
  for (const event of events) {
    if (event.event === 'testStart') {
      if (open !== null) problems.push(`"${fullName(event)}" started while "${fullName(open)}" was running`);
      open = event;
    } else if (event.event === 'testEnd') {
      if (open !== null && fullName(open) !== fullName(event)) problems.push(`"${fullName(event)}" ended while "${fullName(open)}" was running`);
      open = null;
      if (!STATUSES.includes(event.status)) problems.push(`"${fullName(event)}" has status ${event.status}`);
      else tally[event.status] += 1;
      if (typeof event.duration !== 'number' || !(event.duration >= 0)) problems.push(`"${fullName(event)}" has duration ${event.duration}`);
      if ((event.status === 'failed') !== (event.failures.length > 0)) problems.push(`"${fullName(event)}" is ${event.status} with ${event.failures.length} failures`);
      problems.push(...failureProblems(event.failures, fullName(event)));
    }
  }
  if (open !== null) problems.push(`"${fullName(open)}" never ended`);
  if (ends.length === 1) {
    const end = ends[0];
    if (JSON.stringify(end.counts) !== JSON.stringify(tally)) problems.push(`runEnd counts ${JSON.stringify(end.counts)}, testEnd events ${JSON.stringify(tally)}`);
    const failed = tally.failed > 0 || end.failures.length > 0;
    if (end.status !== 'incomplete' && end.status !== (failed ? 'failed' : 'passed')) problems.push(`runEnd status ${end.status}`);
    problems.push(...failureProblems(end.failures, 'runEnd'));
  }
  return problems;
}

function failureProblems(failures, where) {
  return failures.filter((failure) => !(
    KINDS.includes(failure.kind) && typeof failure.message === 'string' && failure.message !== '' &&
    (failure.stack === null || typeof failure.stack === 'string') &&
    (failure.actual === null || typeof failure.actual === 'string') &&
    (failure.expected === null || typeof failure.expected === 'string')
  )).map((failure) => `${where}: malformed failure ${JSON.stringify(failure)}`);
}

module.exports = { outline, protocolProblems, fullName, SEPARATOR };
