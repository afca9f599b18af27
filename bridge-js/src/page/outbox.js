// Frames waiting to go up. Everything queued in one tick leaves as one up-event (one native
// message); nothing leaves before `ready`, when everything held so far leaves as one batch, in
// order. A batch is split where its text would pass limits.maxPayload, and every
// MAX_FRAMES_PER_POST frames: native handles each post in one go, so a flood of calls fired in one
// tick leaves as several posts that other native events (console lines, lifecycle) can come
// between, instead of one that holds the main loop while it is read.
const MAX_FRAMES_PER_POST = 1000;
// After this many posts in one task (calls separated by `await`s), the rest of the task's frames
// wait for the next task and leave together: each post costs native an IPC message, and console
// lines and page events queue behind them.
const BURST_POSTS = 64;

function createOutbox(send) {
  let entries = [];
  let open = false;
  let scheduled = false;
  let maxPayload = DEFAULT_LIMITS.maxPayload;
  let postsThisTask = 0;
  // While a delivery is being handled (see core.js receive) nothing is scheduled: the delivery
  // either sends its frames itself at its end or schedules them then. A queued microtask, even one
  // that finds nothing left to send, costs the web process a main-loop iteration per native call.
  let holds = 0;

  // `entry` is {text, callId?, tooLarge()}: tooLarge runs instead of sending an oversized frame.
  function push(entry) {
    entries.push(entry);
    schedule();
  }

  function schedule() {
    if (!open || scheduled || holds > 0 || entries.length === 0) return;
    scheduled = true;
    if (postsThisTask >= BURST_POSTS) setTimeout(flushInNextTask, 0);
    else queueMicrotask(flush);
  }

  // A timer callback is a task of its own: the count starts again.
  function flushInNextTask() {
    postsThisTask = 0;
    flush();
  }

  // Counts the posts of the current task. The count starts again when a task is known to be new
  // (newTask: a down-frame came, flushInNextTask) rather than from a timer armed per post: such a
  // timer cost a main-loop wake-up per `await hybrid.call`, the most common call there is.
  // `callIds`: the ids of the call frames in `text` (a post refused as a whole fails them).
  function countPost(text, callIds) {
    send(text, callIds);
    postsThisTask++;
  }

  // Takes back a call that has not left yet; false once it has.
  function withdraw(callId) {
    const index = entries.findIndex(function (entry) { return entry.callId === callId; });
    if (index < 0) return false;
    entries.splice(index, 1);
    return true;
  }

  // With `last`, the last post goes through `last` instead of `send` ('' when there is none).
  function flush(last) {
    scheduled = false;
    // The usual batch, one frame within the limit (an awaited call), leaves without the batching
    // below: no closure, no array, no join.
    if (open && entries.length === 1 && entries[0].text.length <= maxPayload) {
      const entry = entries[0];
      const text = '[' + entry.text + ']';
      entries = [];
      if (typeof last === 'function') {
        postsThisTask++;
        last(text);
      } else {
        countPost(text, entry.callId === undefined ? [] : [entry.callId]);
      }
      return;
    }
    let held = null;
    let heldIds = null;
    const post = function (text, ids) {
      if (held !== null) countPost(held, heldIds);
      held = text;
      heldIds = ids;
    };
    if (open) {
      const batch = entries;
      entries = [];
      let texts = [];
      let ids = [];
      let length = 2;
      for (const entry of batch) {
        if (entry.text.length > maxPayload) {
          entry.tooLarge();
          continue;
        }
        if (texts.length >= MAX_FRAMES_PER_POST || (texts.length > 0 && length + 1 + entry.text.length > maxPayload + 2)) {
          post('[' + texts.join(',') + ']', ids);
          texts = [];
          ids = [];
          length = 2;
        }
        length += entry.text.length + (texts.length > 0 ? 1 : 0);
        texts.push(entry.text);
        if (entry.callId !== undefined) ids.push(entry.callId);
      }
      if (texts.length > 0) post('[' + texts.join(',') + ']', ids);
    }
    if (typeof last !== 'function') {
      if (held !== null) countPost(held, heldIds);
      return;
    }
    if (held !== null) postsThisTask++;
    last(held === null ? '' : held);
  }

  return {
    push: push,
    withdraw: withdraw,
    // Sends what is queued now rather than in a microtask (the document is about to go away, or
    // a delivery's calls have all answered: see core.js receive).
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
    // Down-frames reach the page in a task of their own (native answers through IPC), so every
    // post counted so far left in an earlier task. (The relay's local refusal of a post it could
    // not send also comes this way, within the task; such a post cost native nothing.)
    newTask: function () { postsThisTask = 0; },
    hold: function () { holds++; },
    release: function () {
      holds--;
      schedule();
    },
    get maxPayload() { return maxPayload; },
  };
}
