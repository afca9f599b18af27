// Page lifecycle: `ready` is local (the handshake completed); native pushes `show`, `hide` and
// `unload` as event frames. Each is delivered to hybrid.on listeners, as a `hybrid:<name>`
// CustomEvent on window (detail = data), then to observers (the wx hooks).
//
// Guarantees: ready comes before any show or hide (earlier ones wait for it); a show never
// follows a show, nor a hide a hide (duplicates are dropped); unload fires at most once per
// document, from native's `unload` or from `pagehide`, whichever comes first, and nothing
// follows it.

const LIFECYCLE_EVENTS = ['ready', 'show', 'hide', 'unload'];

function createLifecycle(events) {
  const observers = [];
  const early = [];
  let ready = false;
  let unloaded = false;
  let visible = null;

  function fire(name, data) {
    events.emit(name, data);
    window.dispatchEvent(new CustomEvent('hybrid:' + name, { detail: data === undefined ? null : data }));
    for (const observer of observers.slice()) {
      try {
        observer(name, data);
      } catch (error) {
        rethrowLater(error);
      }
    }
  }

  function markReady() {
    if (ready || unloaded) return;
    ready = true;
    fire('ready', undefined);
    for (const event of early.splice(0)) onNativeEvent(event.name, event.data);
  }

  function onNativeEvent(name, data) {
    if (name === 'unload') return unload(data);
    if (unloaded) return;
    if (!ready) {
      early.push({ name: name, data: data });
      return;
    }
    const nowVisible = name === 'show';
    if (visible === nowVisible) return;
    visible = nowVisible;
    fire(name, data);
  }

  function unload(data) {
    if (unloaded) return;
    unloaded = true;
    early.length = 0;
    fire('unload', data);
  }

  return {
    markReady: markReady,
    onNativeEvent: onNativeEvent,
    unload: unload,
    observe: function (observer) { observers.push(observer); },
    get ready() { return ready; },
  };
}
