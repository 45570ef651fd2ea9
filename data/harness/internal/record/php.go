package record

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// PHP-FPM behind nginx (the php-pdo stack): the harness writes both
// configs into the stack's work folder, and one shell runs PHP-FPM in the
// foreground and nginx as its children, so that the server's process tree
// (for CPU and memory) holds nginx and every FPM worker, and SIGTERM stops
// both (see phpCommand). Nothing is read from /etc/nginx or
// /etc/php/*/fpm/pool.d; no system service runs.

// phpPaths are the files of one php-pdo instance under its folder.
type phpPaths struct{ Dir string }

func (p phpPaths) nginxConf() string { return filepath.Join(p.Dir, "nginx.conf") }
func (p phpPaths) fpmConf() string   { return filepath.Join(p.Dir, "php-fpm.conf") }
func (p phpPaths) socket() string    { return filepath.Join(p.Dir, "fpm.sock") }
func (p phpPaths) script() string    { return filepath.Join(p.Dir, "index.php") }

// nginxConfig serves every path of 127.0.0.1:port through FastCGI to the
// FPM socket, a connection per request, and no access log. Kept-alive
// FastCGI connections would each hold an FPM worker while idle in nginx's
// cache, so that requests beyond the pool (the waiting series) queued
// behind them until nginx's timeout.
func nginxConfig(p phpPaths, port int, root bool) string {
	var b strings.Builder
	if root {
		b.WriteString("user root root;\n")
	}
	fmt.Fprintf(&b, `worker_processes 1;
daemon off;
pid %[1]s/nginx.pid;
error_log %[1]s/nginx-error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path %[1]s/tmp/body;
    fastcgi_temp_path %[1]s/tmp/fastcgi;
    proxy_temp_path %[1]s/tmp/proxy;
    uwsgi_temp_path %[1]s/tmp/uwsgi;
    scgi_temp_path %[1]s/tmp/scgi;
    server {
        listen 127.0.0.1:%[3]d;
        location / {
            fastcgi_pass unix:%[2]s;
            fastcgi_param SCRIPT_FILENAME %[4]s;
            fastcgi_param REQUEST_METHOD $request_method;
            fastcgi_param QUERY_STRING $query_string;
            fastcgi_param REQUEST_URI $request_uri;
            fastcgi_param SERVER_PROTOCOL $server_protocol;
        }
    }
}
`, p.Dir, p.socket(), port, p.script())
	return b.String()
}

// fpmConfig is one static pool of poolSize workers (each keeping one
// persistent database connection: the pool size of the other stacks),
// given the DSN in env[WRA_DSN].
func fpmConfig(p phpPaths, dsn string, poolSize int, root bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, `[global]
pid = %[1]s/php-fpm.pid
error_log = %[1]s/php-fpm-error.log
daemonize = no

[wra]
listen = %[2]s
pm = static
pm.max_children = %[3]d
clear_env = yes
env[WRA_DSN] = %[4]s
catch_workers_output = yes
`, p.Dir, p.socket(), poolSize, strconv.Quote(dsn))
	if root {
		b.WriteString("user = root\ngroup = root\n")
	}
	return b.String()
}

// preparePHP writes one instance's folder: the script and both configs.
func (r *Runner) preparePHP(st Stack, port int, dsn string) (phpPaths, error) {
	p := phpPaths{Dir: filepath.Join(r.work, st.Build, strconv.Itoa(port))}
	if err := os.MkdirAll(filepath.Join(p.Dir, "tmp"), 0o755); err != nil {
		return p, err
	}
	root := os.Geteuid() == 0
	if err := copyFile(filepath.Join(r.Src, "servers", st.Build, "index.php"), p.script()); err != nil {
		return p, err
	}
	if err := os.WriteFile(p.nginxConf(), []byte(nginxConfig(p, port, root)), 0o644); err != nil {
		return p, err
	}
	return p, os.WriteFile(p.fpmConf(), []byte(fpmConfig(p, dsn, r.Plan.PoolSize, root)), 0o644)
}

// phpCommand is the shell script that runs FPM and nginx as its children
// and, on SIGTERM or SIGINT, stops both and waits for them. FPM puts itself
// in a process group of its own, so the harness's SIGTERM to the server's
// group reaches it only through this script's trap.
func phpCommand(fpm, nginx string, p phpPaths, root bool) []string {
	fpmArgs := "-F -y " + shellQuote(p.fpmConf())
	if root {
		fpmArgs += " -R" // FPM refuses root without it
	}
	script := fmt.Sprintf(`%s %s & f=$!
%s -p %s -e %s -c %s & n=$!
trap 'kill -TERM $f $n 2>/dev/null; wait' TERM INT
wait`, shellQuote(fpm), fpmArgs, shellQuote(nginx), shellQuote(p.Dir+"/"),
		shellQuote(filepath.Join(p.Dir, "nginx-error.log")), shellQuote(p.nginxConf()))
	return []string{"-c", script}
}

// pdoDSN is PDO's DSN of the PostgreSQL database (php-pdo runs on
// PostgreSQL only: pdo_mysql takes no user in its DSN).
func pdoDSN(db *runningDB) string {
	return fmt.Sprintf("pgsql:host=127.0.0.1;port=%d;dbname=postgres;user=postgres", db.Port)
}
