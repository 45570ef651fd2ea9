"""py-asyncpg serves the harness API with uvicorn (ASGI, one process) and an
asyncpg pool, which prepares each statement once per connection and caches
it. The bodies are byte for byte those of the Go servers (servers/api):
same queries, same JSON keys in the same order, no spaces.

Usage: python3 server.py [-addr 127.0.0.1:8080] [-dsn URL] [-pool 20]
(-dsn defaults to $DATABASE_URL). Debian: python3-uvicorn, python3-asyncpg.
"""
import asyncio
import json
import os
import re
import sys
from urllib.parse import parse_qs

import asyncpg
import uvicorn

QUERY_ONE = "SELECT id, name, price_cents FROM items WHERE id = $1"
QUERY_PAGE = "SELECT id, name, price_cents FROM items WHERE id > $1 ORDER BY id LIMIT $2"
MAX_PAGE_LIMIT = 100
MAX_WAIT_MS = 60000
MAX_ID = 2**31 - 1
INT = re.compile(r"^[+-]?[0-9]+$")


class BadRequest(Exception):
    pass


def parse_args(argv):
    cfg = {"addr": "127.0.0.1:8080", "dsn": os.environ.get("DATABASE_URL", ""), "pool": "20"}
    if len(argv) % 2:
        raise ValueError(f"missing value after {argv[-1]} (accepted: -addr, -dsn, -pool)")
    for flag, value in zip(argv[0::2], argv[1::2]):
        key = flag.lstrip("-")
        if key not in cfg:
            raise ValueError(f"unknown flag {flag} (accepted: -addr, -dsn, -pool)")
        cfg[key] = value
    if not cfg["dsn"]:
        raise ValueError("no database: pass -dsn or set DATABASE_URL")
    if not INT.match(cfg["pool"]) or int(cfg["pool"]) < 1:
        raise ValueError(f"-pool must be at least 1, got {cfg['pool']}")
    cfg["pool"] = int(cfg["pool"])
    return cfg


def int_param(query, name, default, lo, hi):
    """Mirrors api.intParam: default < 0 makes the parameter required."""
    s = query.get(name, [""])[0]
    if s == "":
        if default < 0:
            raise BadRequest(f'query parameter "{name}" is required')
        return default
    if not INT.match(s) or not lo <= int(s) <= hi:
        raise BadRequest(f'query parameter "{name}" must be an integer in [{lo}, {hi}], got "{s}"')
    return int(s)


def item(row):
    return {"id": row["id"], "name": row["name"], "price_cents": row["price_cents"]}


async def send(send_, status, value):
    body = json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
    await send_({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send_({"type": "http.response.body", "body": body})


class App:
    def __init__(self, cfg):
        self.cfg = cfg
        self.pool = None

    async def __call__(self, scope, receive, send_):
        if scope["type"] == "lifespan":
            return await self.lifespan(receive, send_)
        if scope["type"] != "http":
            return
        try:
            await self.route(scope, send_)
        except BadRequest as e:
            await send(send_, 400, {"error": str(e)})
        except Exception as e:  # the Go servers answer 500 with the error's text
            await send(send_, 500, {"error": str(e)})

    async def lifespan(self, receive, send_):
        while True:
            msg = await receive()
            if msg["type"] == "lifespan.startup":
                try:
                    self.pool = await asyncpg.create_pool(self.cfg["dsn"], min_size=self.cfg["pool"], max_size=self.cfg["pool"])
                except Exception as e:
                    await send_({"type": "lifespan.startup.failed", "message": f"open database: {e}"})
                    return
                await send_({"type": "lifespan.startup.complete"})
            elif msg["type"] == "lifespan.shutdown":
                if self.pool is not None:
                    await self.pool.close()
                await send_({"type": "lifespan.shutdown.complete"})
                return

    async def route(self, scope, send_):
        if scope["method"] != "GET":
            return await send(send_, 405, {"error": "method not allowed"})
        query = parse_qs(scope["query_string"].decode(), keep_blank_values=True)
        path = scope["path"]
        if path == "/ping":
            return await send(send_, 200, {"ok": True})
        if path == "/wait":
            ms = int_param(query, "ms", 0, 0, MAX_WAIT_MS)
            await asyncio.sleep(ms / 1000)
            return await send(send_, 200, {"waited_ms": ms})
        if path == "/db/one":
            id_ = int_param(query, "id", -1, 1, MAX_ID)
            row = await self.pool.fetchrow(QUERY_ONE, id_)
            if row is None:
                return await send(send_, 404, {"error": "not found"})
            return await send(send_, 200, item(row))
        if path == "/db/page":
            after = int_param(query, "after", 0, 0, MAX_ID)
            limit = int_param(query, "limit", 20, 1, MAX_PAGE_LIMIT)
            rows = await self.pool.fetch(QUERY_PAGE, after, limit)
            return await send(send_, 200, {"items": [item(r) for r in rows]})
        return await send(send_, 404, {"error": "not found"})


def main():
    try:
        cfg = parse_args(sys.argv[1:])
    except ValueError as e:
        print(f"py-asyncpg: {e}", file=sys.stderr)
        return 2
    host, _, port = cfg["addr"].rpartition(":")
    config = uvicorn.Config(App(cfg), host=host, port=int(port), lifespan="on",
                            access_log=False, log_level="warning", loop="asyncio", http="h11")
    server = uvicorn.Server(config)
    server.run()
    return 0 if server.started else 1


if __name__ == "__main__":
    sys.exit(main())
