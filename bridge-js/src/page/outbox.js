// Frames waiting to go up. Everything queued in one tick leaves as one up-event (one native
// message); nothing leaves before `ready`, when everything held so far leaves as one batch, in
// order. A batch is split where its text would pass limits.maxPayload, and every
// MAX_FRAMES_PER_POST frames: native handles each post in one go, so a flood of calls fired in one
// tick leaves as several posts that other native events (console lines, lifecycle) can come
// between, instead of one that holds the main loop while it is read.
const MAX_FRAMES_PER_POST = 1000;

function createOutbox(send) {
  let entries = [];
  let open = false;
  let scheduled = false;
  let maxPayload = DEFAULT_LIMITS.maxPayload;

  // `entry` is {text, callId?, tooLarge()}: tooLarge runs instead of sending an oversized frame.
  function push(entry) {
    entries.push(entry);
    schedule();
  }

  function schedule() {
    if (!open || scheduled || entries.length === 0) return;
    scheduled = true;
    queueMicrotask(flush);
  }

  // Takes back a call that has not left yet; false once it has.
  function withdraw(callId) {
    const index = entries.findIndex(function (entry) { return entry.callId === callId; });
    if (index < 0) return false;
    entries.splice(index, 1);
    return true;
  }

  function flush() {
    scheduled = false;
    if (!open) return;
    const batch = entries;
    entries = [];
    let texts = [];
    let length = 2;
    for (const entry of batch) {
      if (entry.text.length > maxPayload) {
        entry.tooLarge();
        continue;
      }
      if (texts.length >= MAX_FRAMES_PER_POST || (texts.length > 0 && length + 1 + entry.text.length > maxPayload + 2)) {
        send('[' + texts.join(',') + ']');
        texts = [];
        length = 2;
      }
      length += entry.text.length + (texts.length > 0 ? 1 : 0);
      texts.push(entry.text);
    }
    if (texts.length > 0) send('[' + texts.join(',') + ']');
  }

  return {
    push: push,
    withdraw: withdraw,
    // Sends what is queued now rather than in a microtask (the document is about to go away).
    flushNow: flush,
    open: function (limits) {
      maxPayload = limits.maxPayload;
      open = true;
      flush();
    },
    close: function () {
      open = false;
      entries = [];
    },
    get maxPayload() { return maxPayload; },
  };
}
