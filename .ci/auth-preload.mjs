// Adds the API key to every request the conformance runner and the
// Inspector send: they send no Authorization header by themselves. They
// reach the server three ways (fetch, undici's request, node:http's
// request), so each is wrapped. Loaded with node --import, before the
// tool's own modules, so that they see the wrapped functions.
import http from "node:http";
import { createRequire } from "node:module";

const key = process.env.GROCERY_API_KEY;
const auth = `Bearer ${key}`;

const plainFetch = globalThis.fetch;
globalThis.fetch = (input, init = {}) => {
  const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
  headers.set("Authorization", auth);
  return plainFetch(input, { ...init, headers });
};

// node:http's request(url?, options?, callback?): the options object gets
// the header, whatever its position.
const plainRequest = http.request;
http.request = (...args) => {
  const i = args.findIndex((a) => a && typeof a === "object" && !(a instanceof URL));
  if (i >= 0) {
    args[i] = { ...args[i], headers: { ...args[i].headers, Authorization: auth } };
  } else {
    args.splice(args[0] instanceof URL || typeof args[0] === "string" ? 1 : 0, 0, { headers: { Authorization: auth } });
  }
  return plainRequest(...args);
};

// undici's request, as the tool resolves it (from the script's own
// node_modules); a tool without undici needs no wrapper.
try {
  const undici = createRequire(process.argv[1])("undici");
  const plainUndici = undici.request;
  undici.request = (url, opts = {}) => {
    const headers = { ...opts.headers };
    for (const name of Object.keys(headers)) if (name.toLowerCase() === "authorization") delete headers[name];
    return plainUndici(url, { ...opts, headers: { ...headers, authorization: auth } });
  };
} catch {}
