package record

import (
	"strings"
	"testing"
)

func TestPHPConfigs(t *testing.T) {
	p := phpPaths{Dir: "/w/php-pdo/18087"}
	ng := nginxConfig(p, 18087, false)
	for _, want := range []string{"daemon off;", "listen 127.0.0.1:18087;", "fastcgi_pass unix:/w/php-pdo/18087/fpm.sock;",
		"fastcgi_param SCRIPT_FILENAME /w/php-pdo/18087/index.php;", "access_log off;",
		"pid /w/php-pdo/18087/nginx.pid;"} {
		if !strings.Contains(ng, want) {
			t.Errorf("nginx.conf lacks %q:\n%s", want, ng)
		}
	}
	if strings.Contains(ng, "keepalive") || strings.Contains(ng, "fastcgi_keep_conn") {
		t.Errorf("kept-alive FastCGI connections hold FPM workers while idle:\n%s", ng)
	}
	if strings.Contains(ng, "user root") || !strings.HasPrefix(nginxConfig(p, 1, true), "user root root;\n") {
		t.Error("user root only when the harness runs as root")
	}
	fpm := fpmConfig(p, `pgsql:host=127.0.0.1;port=55432;dbname=postgres;user=postgres`, 20, false)
	for _, want := range []string{"daemonize = no", "pm = static", "pm.max_children = 20", "listen = /w/php-pdo/18087/fpm.sock",
		`env[WRA_DSN] = "pgsql:host=127.0.0.1;port=55432;dbname=postgres;user=postgres"`, "clear_env = yes"} {
		if !strings.Contains(fpm, want) {
			t.Errorf("php-fpm.conf lacks %q:\n%s", want, fpm)
		}
	}
	if strings.Contains(fpm, "user = root") || !strings.Contains(fpmConfig(p, "x", 1, true), "user = root\ngroup = root\n") {
		t.Error("FPM user root only when the harness runs as root")
	}
	args := phpCommand("/usr/sbin/php-fpm8.2", "/usr/sbin/nginx", p, true)
	if len(args) != 2 || args[0] != "-c" || !strings.Contains(args[1], "-F -y /w/php-pdo/18087/php-fpm.conf -R & f=$!") ||
		!strings.Contains(args[1], "-c /w/php-pdo/18087/nginx.conf & n=$!") || !strings.Contains(args[1], "trap 'kill -TERM $f $n") {
		t.Errorf("command %q", args)
	}
	if strings.Contains(phpCommand("fpm", "nginx", p, false)[1], " -R") {
		t.Error("-R without root")
	}
	if got := pdoDSN(&runningDB{Name: "PostgreSQL", Port: 55432}); got != "pgsql:host=127.0.0.1;port=55432;dbname=postgres;user=postgres" {
		t.Errorf("PDO DSN %s", got)
	}
}
