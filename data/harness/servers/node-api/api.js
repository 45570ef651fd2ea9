// The harness API for the Node.js stacks (node-pg, node-mysql): command
// line, query parameters, routes and JSON bodies, byte-for-byte those of the
// Go servers (servers/api). A stack supplies only its database: an object
// with one(id) -> row or undefined, page(after, limit) -> rows, ping() and
// end().
'use strict';
const http = require('node:http');

const MAX_PAGE_LIMIT = 100;
const MAX_WAIT_MS = 60000;
const MAX_ID = 2 ** 31 - 1;

function parseArgs(argv) {
  const cfg = { addr: '127.0.0.1:8080', dsn: process.env.DATABASE_URL || '', pool: 20 };
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i].replace(/^--?/, '');
    const value = argv[i + 1];
    if (!(flag in cfg) || value === undefined) {
      throw new Error(`unknown flag or missing value: ${argv[i]} (accepted: -addr, -dsn, -pool)`);
    }
    cfg[flag] = flag === 'pool' ? Number(value) : value;
  }
  if (!cfg.dsn) throw new Error('no database: pass -dsn or set DATABASE_URL');
  if (!Number.isInteger(cfg.pool) || cfg.pool < 1) throw new Error(`-pool must be at least 1, got ${cfg.pool}`);
  return cfg;
}

// intParam mirrors api.intParam: def < 0 makes the parameter required.
function intParam(query, name, def, lo, hi) {
  const s = query.get(name);
  if (s === null || s === '') {
    if (def < 0) throw new RangeError(`query parameter "${name}" is required`);
    return def;
  }
  const v = /^[+-]?\d+$/.test(s) ? Number(s) : NaN;
  if (!Number.isSafeInteger(v) || v < lo || v > hi) {
    throw new RangeError(`query parameter "${name}" must be an integer in [${lo}, ${hi}], got "${s}"`);
  }
  return v;
}

function send(res, status, value) {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

function item(row) {
  return { id: row.id, name: row.name, price_cents: row.price_cents };
}

async function route(db, req, res) {
  const url = new URL(req.url, 'http://localhost');
  if (req.method !== 'GET') return send(res, 405, { error: 'method not allowed' });
  switch (url.pathname) {
    case '/ping':
      return send(res, 200, { ok: true });
    case '/wait': {
      const ms = intParam(url.searchParams, 'ms', 0, 0, MAX_WAIT_MS);
      await new Promise((resolve) => setTimeout(resolve, ms));
      return send(res, 200, { waited_ms: ms });
    }
    case '/db/one': {
      const id = intParam(url.searchParams, 'id', -1, 1, MAX_ID);
      const row = await db.one(id);
      if (row === undefined) return send(res, 404, { error: 'not found' });
      return send(res, 200, item(row));
    }
    case '/db/page': {
      const after = intParam(url.searchParams, 'after', 0, 0, MAX_ID);
      const limit = intParam(url.searchParams, 'limit', 20, 1, MAX_PAGE_LIMIT);
      const rows = await db.page(after, limit);
      return send(res, 200, { items: rows.map(item) });
    }
    default:
      return send(res, 404, { error: 'not found' });
  }
}

// main runs a server named name; open(cfg) returns its database.
function main(name, open) {
  let cfg;
  try {
    cfg = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`${name}: ${e.message}`);
    process.exit(2);
  }
  const db = open(cfg, (e) => console.error(`${name}: idle client error: ${e.message}`));
  const server = http.createServer((req, res) => {
    route(db, req, res).catch((e) => send(res, e instanceof RangeError ? 400 : 500, { error: e.message }));
  });
  const sep = cfg.addr.lastIndexOf(':');
  const host = cfg.addr.slice(0, sep);
  const port = Number(cfg.addr.slice(sep + 1));
  db.ping().then(() => {
    server.listen(port, host, () => console.error(`listening on ${cfg.addr}`));
  }, (e) => {
    console.error(`${name}: open database: ${e.message}`);
    process.exit(1);
  });
  const stop = () => server.close(() => db.end().then(() => process.exit(0)));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

module.exports = { main };
