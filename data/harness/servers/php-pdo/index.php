<?php
// php-pdo serves the harness API with PHP-FPM behind nginx and PDO (pdo_pgsql
// or pdo_mysql, from the DSN). Each FPM worker keeps one persistent
// connection, so pm.max_children is the pool size; PDO's prepare/execute
// with emulation off makes every query a server-side prepared statement,
// prepared anew per request. The bodies are byte for byte those of the Go
// servers (servers/api). The harness writes the nginx and FPM configs
// (internal/record/php.go); the DSN comes from the pool's env[WRA_DSN].
declare(strict_types=1);

const QUERY_ONE = 'SELECT id, name, price_cents FROM items WHERE id = ?';
const QUERY_PAGE = 'SELECT id, name, price_cents FROM items WHERE id > ? ORDER BY id LIMIT ?';
const MAX_PAGE_LIMIT = 100;
const MAX_WAIT_MS = 60000;
const MAX_ID = 2147483647;

final class BadRequest extends Exception {}

function send(int $status, $value): void {
    $body = json_encode($value, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
    http_response_code($status);
    header('Content-Type: application/json');
    header('Content-Length: ' . strlen($body));
    echo $body;
}

// int_param mirrors api.intParam: $def < 0 makes the parameter required.
function int_param(string $name, int $def, int $lo, int $hi): int {
    $s = isset($_GET[$name]) && is_string($_GET[$name]) ? $_GET[$name] : '';
    if ($s === '') {
        if ($def < 0) {
            throw new BadRequest("query parameter \"$name\" is required");
        }
        return $def;
    }
    if (!preg_match('/^[+-]?[0-9]+$/', $s) || (int)$s < $lo || (int)$s > $hi || strlen(ltrim($s, '+-0')) > 10) {
        throw new BadRequest("query parameter \"$name\" must be an integer in [$lo, $hi], got \"$s\"");
    }
    return (int)$s;
}

function db(): PDO {
    static $pdo = null;
    if ($pdo === null) {
        $pdo = new PDO(getenv('WRA_DSN'), null, null, [
            PDO::ATTR_PERSISTENT => true,
            PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION,
            PDO::ATTR_EMULATE_PREPARES => false,
            PDO::ATTR_STRINGIFY_FETCHES => false,
        ]);
    }
    return $pdo;
}

function item(array $row): array {
    return ['id' => (int)$row['id'], 'name' => (string)$row['name'], 'price_cents' => (int)$row['price_cents']];
}

function route(): void {
    if ($_SERVER['REQUEST_METHOD'] !== 'GET') {
        send(405, ['error' => 'method not allowed']);
        return;
    }
    switch (parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH)) {
        case '/ping':
            send(200, ['ok' => true]);
            return;
        case '/wait':
            $ms = int_param('ms', 0, 0, MAX_WAIT_MS);
            usleep($ms * 1000);
            send(200, ['waited_ms' => $ms]);
            return;
        case '/db/one':
            $id = int_param('id', -1, 1, MAX_ID);
            $st = db()->prepare(QUERY_ONE);
            $st->bindValue(1, $id, PDO::PARAM_INT);
            $st->execute();
            $row = $st->fetch(PDO::FETCH_ASSOC);
            if ($row === false) {
                send(404, ['error' => 'not found']);
                return;
            }
            send(200, item($row));
            return;
        case '/db/page':
            $after = int_param('after', 0, 0, MAX_ID);
            $limit = int_param('limit', 20, 1, MAX_PAGE_LIMIT);
            $st = db()->prepare(QUERY_PAGE);
            $st->bindValue(1, $after, PDO::PARAM_INT);
            $st->bindValue(2, $limit, PDO::PARAM_INT);
            $st->execute();
            send(200, ['items' => array_map('item', $st->fetchAll(PDO::FETCH_ASSOC))]);
            return;
    }
    send(404, ['error' => 'not found']);
}

try {
    route();
} catch (BadRequest $e) {
    send(400, ['error' => $e->getMessage()]);
} catch (Throwable $e) {
    send(500, ['error' => $e->getMessage()]);
}
