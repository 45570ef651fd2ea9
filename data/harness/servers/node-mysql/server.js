// node-mysql serves the harness API with Node.js's http module and a mysql2
// pool on MariaDB. pool.query sends each query as text with the parameters
// escaped into it by the client (no server-side prepared statement), the
// mode most Node applications use. The API itself is ../node-api.
//
// Usage: node server.js [-addr 127.0.0.1:8080] [-dsn mysql://URL] [-pool 20]
// (-dsn defaults to $DATABASE_URL).
'use strict';
const mysql = require('mysql2/promise');
const { main } = require('../node-api/api.js');

const QUERY_ONE = 'SELECT id, name, price_cents FROM items WHERE id = ?';
const QUERY_PAGE = 'SELECT id, name, price_cents FROM items WHERE id > ? ORDER BY id LIMIT ?';

main('node-mysql', (cfg, onError) => {
  const pool = mysql.createPool({ uri: cfg.dsn, connectionLimit: cfg.pool, maxIdle: cfg.pool });
  pool.on('error', onError);
  return {
    one: async (id) => (await pool.query(QUERY_ONE, [id]))[0][0],
    page: async (after, limit) => (await pool.query(QUERY_PAGE, [after, limit]))[0],
    ping: () => pool.query('SELECT 1'),
    end: () => pool.end(),
  };
});
