// node-pg serves the harness API with Node.js's http module and the pg
// (node-postgres) pool. The API itself (routes, bodies) is ../node-api.
//
// Usage: node server.js [-addr 127.0.0.1:8080] [-dsn URL] [-pool 20]
// (-dsn defaults to $DATABASE_URL).
'use strict';
const { Pool } = require('pg');
const { main } = require('../node-api/api.js');

const QUERY_ONE = 'SELECT id, name, price_cents FROM items WHERE id = $1';
const QUERY_PAGE = 'SELECT id, name, price_cents FROM items WHERE id > $1 ORDER BY id LIMIT $2';

main('node-pg', (cfg, onError) => {
  const pool = new Pool({ connectionString: cfg.dsn, max: cfg.pool });
  pool.on('error', onError);
  return {
    one: async (id) => (await pool.query(QUERY_ONE, [id])).rows[0],
    page: async (after, limit) => (await pool.query(QUERY_PAGE, [after, limit])).rows,
    ping: () => pool.query('SELECT 1'),
    end: () => pool.end(),
  };
});
