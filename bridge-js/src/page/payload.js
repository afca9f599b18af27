// Turning page values into JSON text for the wire, once, with the checks native would apply.

// JSON text of `value`, or a HybridError with INVALID_MESSAGE. `undefined` (and a lone function
// or symbol, which JSON.stringify also skips) travels as null.
function encodePayload(value, maxDepth) {
  checkShape(value, maxDepth);
  let text;
  try {
    text = JSON.stringify(value);
  } catch (e) {
    throw invalid('data cannot be encoded as JSON: ' + errorFromThrown(e).message);
  }
  return text === undefined ? 'null' : text;
}

// Native refuses nesting deeper than limits.maxDepth and any "__proto__" key; checking here lets
// the call fail alone instead of taking its whole batch down. Depth counts containers: a scalar
// is 0, [] and {} are 1. Values with toJSON are leaves (they serialize as they like). Recursion
// is bounded by maxDepth; heights are memoized so shared sub-objects are walked once.
function checkShape(value, maxDepth) {
  if (value === null || typeof value !== 'object') return;  // the common scalar payload costs nothing
  if (isSmallPlainTree(value, maxDepth)) return;
  const heights = new Map();
  const onPath = new Set();

  function heightOf(node, depth) {
    if (node === null || typeof node !== 'object' || typeof node.toJSON === 'function') return 0;
    if (depth >= maxDepth) throw invalid('data nests deeper than ' + maxDepth + ' levels');
    if (onPath.has(node)) throw invalid('data contains a cycle');
    const known = heights.get(node);
    if (known !== undefined) {
      if (depth + known > maxDepth) throw invalid('data nests deeper than ' + maxDepth + ' levels');
      return known;
    }
    if (!Array.isArray(node) && hasOwn.call(node, '__proto__')) throw invalid('data has a "__proto__" key');
    onPath.add(node);
    let height = 0;
    const children = Array.isArray(node) ? node : Object.keys(node).map(function (key) { return node[key]; });
    for (let i = 0; i < children.length; i++) height = Math.max(height, heightOf(children[i], depth + 1));
    onPath.delete(node);
    heights.set(node, height + 1);
    return height + 1;
  }

  heightOf(value, 0);
}

// The common object payload — a small tree, no "__proto__" key, within the depth limit — walked
// once with no bookkeeping (the walk below allocates a Map and a Set per call). False for
// anything else, which then gets the walk below: it tells a cycle, a shared node or too much
// depth apart and words the error. Only containers count against the budget.
// The walk's budget of containers, shared rather than captured: a closure per call showed in the
// cost of a call. (A toJSON getter that re-enters the walk can only change how far it goes before
// giving up; whatever it accepts has still been checked for depth and "__proto__".)
let smallTreeBudget = 0;

function isSmallPlainTree(value, maxDepth) {
  smallTreeBudget = 64;
  return walkSmallTree(value, 0, maxDepth);
}

function walkSmallTree(node, depth, maxDepth) {
  if (node === null || typeof node !== 'object' || typeof node.toJSON === 'function') return true;
  if (--smallTreeBudget < 0 || depth >= maxDepth) return false;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) if (!walkSmallTree(node[i], depth + 1, maxDepth)) return false;
    return true;
  }
  if (hasOwn.call(node, '__proto__')) return false;
  const keys = Object.keys(node);
  for (let i = 0; i < keys.length; i++) if (!walkSmallTree(node[keys[i]], depth + 1, maxDepth)) return false;
  return true;
}

function invalid(message) {
  return new HybridError(ErrorCode.INVALID_MESSAGE, message);
}
