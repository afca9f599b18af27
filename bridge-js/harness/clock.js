// Fake timers for the test DOM: nothing runs until a test advances time.
'use strict';

class Clock {
  constructor(reportError) {
    this.now = 0;
    this.timers = new Map();
    this.nextId = 1;
    this.reportError = reportError;
  }

  setTimeout(fn, ms, args = []) {
    const id = this.nextId++;
    const delay = Math.max(0, Number(ms) || 0);
    this.timers.set(id, { due: this.now + delay, id, fn, args });
    return id;
  }

  clearTimeout(id) {
    this.timers.delete(id);
  }

  get pending() {
    return this.timers.size;
  }

  // Advances time by `ms`, running every timer that falls due, in order, and letting the
  // promise jobs each one starts finish before the next (as an event loop would).
  async tick(ms = 0) {
    const end = this.now + ms;
    for (;;) {
      // Promise jobs run before the next timer, as in an event loop: time must not jump past
      // work that is already due now.
      await idle();
      const next = [...this.timers.values()].filter((t) => t.due <= end).sort((a, b) => a.due - b.due || a.id - b.id)[0];
      if (!next) break;
      this.timers.delete(next.id);
      this.now = next.due;
      try {
        next.fn(...next.args);
      } catch (error) {
        this.reportError(error);
      }
      await idle();
    }
    this.now = end;
    await idle();
  }
}

// Resolves once every promise job queued so far (and any they queue) has run. Every fake
// asynchronous step in the harness is a promise job or a fake timer, so this is exact.
function idle() {
  return new Promise((resolve) => setImmediate(resolve));
}

module.exports = { Clock, idle };
