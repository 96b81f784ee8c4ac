// Adds the API key to every fetch: the conformance runner and the
// Inspector send no Authorization header by themselves.
const key = process.env.GROCERY_API_KEY;
const plain = globalThis.fetch;
globalThis.fetch = (input, init = {}) => {
  const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
  headers.set("Authorization", `Bearer ${key}`);
  return plain(input, { ...init, headers });
};
