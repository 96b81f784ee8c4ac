// A revoked key through the official TypeScript SDK v2 client, pinned to
// 2026-07-28, over HTTP or through grocery mcp-bridge: the error the
// client shows must say the key was revoked, not that versions failed.
//
//   node mcp-ts-revoked.mjs URL [GROCERY]   (the key: GROCERY_API_KEY)
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const [url, grocery] = process.argv.slice(2);
const via = grocery ? "through mcp-bridge" : "over HTTP";
const client = new Client({ name: "grocery-ci", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
const transport = grocery
  ? new StdioClientTransport({
      command: grocery,
      args: ["mcp-bridge", "--url", url],
      env: { GROCERY_API_KEY: process.env.GROCERY_API_KEY },
      stderr: "ignore",
    })
  : new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${process.env.GROCERY_API_KEY}` } },
    });
let shown;
try {
  await client.connect(transport);
  await client.listTools();
} catch (err) {
  shown = `${err.message} ${JSON.stringify(err.data ?? "")}`;
}
await client.close().catch(() => {});
if (!shown) {
  console.error(`ts-client revoked key ${via}: the calls succeeded`);
  process.exit(1);
}
if (!/revoked/.test(shown)) {
  console.error(`ts-client revoked key ${via}: the client shows ${shown.slice(0, 300)}, not that the key was revoked`);
  process.exit(1);
}
console.log(`ts-client pin, revoked key ${via}: ${shown.slice(0, 160)}`);
process.exit(0);
