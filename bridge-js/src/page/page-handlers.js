// Page handlers that native can call. `hybrid.register` fills the own table; dialects add
// resolvers (their own tables, looked at in install order) and fallbacks (default handlers,
// looked at only when nothing else has the name).
//
// An invoker is `function (data, context)` returning a value or a Promise, where context is
// {args, progress(value)}; `args` is true when native sent `d` as an argument list.

function createPageHandlers() {
  const own = new Map();
  const resolvers = [];
  const fallbacks = [];

  function register(name, fn) {
    if (typeof name !== 'string' || name === '') throw new TypeError('handler name must be a non-empty string');
    if (typeof fn !== 'function') throw new TypeError('handler must be a function');
    own.set(name, function (data, context) { return fn(data, { progress: context.progress }); });
  }

  function resolve(name) {
    if (own.has(name)) return own.get(name);
    for (const list of [resolvers, fallbacks]) {
      for (const resolver of list) {
        const invoker = resolver(name);
        if (invoker) return invoker;
      }
    }
    return null;
  }

  return {
    register: register,
    unregister: function (name) { own.delete(name); },
    addResolver: function (resolver) { resolvers.push(resolver); },
    addFallback: function (resolver) { fallbacks.push(resolver); },
    resolve: resolve,
  };
}
