// `hybrid.on` listeners. `ready` is sticky: a listener added after it fired runs once, soon.

function createEvents() {
  const listeners = new Map();
  let readyFired = false;

  function on(name, fn) {
    if (typeof name !== 'string' || typeof fn !== 'function') throw new TypeError('on(name, fn) needs a string and a function');
    if (!listeners.has(name)) listeners.set(name, []);
    listeners.get(name).push(fn);
    if (name === 'ready' && readyFired) queueMicrotask(function () { respond(fn, undefined); });
  }

  function off(name, fn) {
    const list = listeners.get(name);
    if (!list) return;
    const index = list.indexOf(fn);
    if (index >= 0) list.splice(index, 1);
  }

  function emit(name, data) {
    if (name === 'ready') readyFired = true;
    const list = listeners.get(name);
    if (!list) return;
    for (const fn of list.slice()) respond(fn, data);
  }

  return { on: on, off: off, emit: emit };
}
