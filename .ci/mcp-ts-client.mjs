// Drives the four MCP tools through the official TypeScript SDK v2 client
// (@modelcontextprotocol/client), as a client of today would, and chains
// them: barcode -> offers -> external_sku -> price_history.
//
//   node mcp-ts-client.mjs URL MODE [GROCERY]   (MODE: pin | auto | legacy)
//
// pin: versionNegotiation {pin: "2026-07-28"} (server/discover must offer
// it); auto: probe with server/discover, fall back to initialize; legacy:
// the 2025 initialize handshake only. The key comes from GROCERY_API_KEY.
// With GROCERY (the path of the grocery binary) the client speaks stdio to
// "grocery mcp-bridge --url URL" instead of HTTP to URL.
// .ci/run copies this file beside the node_modules the client is
// installed in, so that the import resolves.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const [url, mode, grocery] = process.argv.slice(2);
const via = grocery ? "through mcp-bridge" : "over HTTP";
const modes = { pin: { pin: "2026-07-28" }, auto: "auto", legacy: "legacy" };
const wantVersion = { pin: "2026-07-28", auto: "2026-07-28" };
if (!url || !(mode in modes)) {
  console.error("usage: node mcp-ts-client.mjs URL pin|auto|legacy [GROCERY]");
  process.exit(2);
}
const fail = (msg) => {
  console.error(`ts-client ${mode} ${via}: ${msg}`);
  process.exit(1);
};

const client = new Client({ name: "grocery-ci", version: "1.0.0" }, { versionNegotiation: { mode: modes[mode] } });
const transport = grocery
  ? new StdioClientTransport({
      command: grocery,
      args: ["mcp-bridge", "--url", url],
      env: { GROCERY_API_KEY: process.env.GROCERY_API_KEY },
    })
  : new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${process.env.GROCERY_API_KEY}` } },
    });
await client.connect(transport);

const version = client.getNegotiatedProtocolVersion();
if (wantVersion[mode] ? version !== wantVersion[mode] : !version?.startsWith("2025-")) {
  fail(`negotiated ${version}`);
}
const info = client.getServerVersion();
if (info?.name !== "grocery" || !info.version || info.version === "dev") fail(`serverInfo ${JSON.stringify(info)}`);

const { tools } = await client.listTools();
const names = tools.map((t) => t.name).sort().join(" ");
if (names !== "list_reference_stores lookup_product price_history search_products") fail(`tools: ${names}`);

const call = async (name, args, field) => {
  const res = await client.callTool({ name, arguments: args });
  const out = res.structuredContent;
  if (res.isError || !out || !Array.isArray(out[field]) || out[field].length === 0) {
    fail(`${name}: ${JSON.stringify(res).slice(0, 400)}`);
  }
  if (JSON.stringify(JSON.parse(res.content[0].text)) !== JSON.stringify(out)) fail(`${name}: text and structuredContent differ`);
  return out;
};
const lookup = await call("lookup_product", { upc: "067000378089", province: "ON" }, "offers");
const offer = lookup.offers[0];
const history = await call("price_history", { sku: offer.external_sku, banner: offer.banner, province: "ON", period: "90d" }, "points");
await call("search_products", { query: "milk", province: "ON", limit: 3 }, "results");
await call("list_reference_stores", { province: "ON", limit: 2 }, "stores");
await client.close();
console.log(
  `ts-client ${mode} ${via}: protocol ${version}, server ${info.name} ${info.version}: ${lookup.product.name} -> ` +
    `${offer.banner} ${offer.external_sku} -> ${history.points.length} price points`,
);
