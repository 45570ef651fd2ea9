package dbproc

import (
	"os"
	"testing"
)

func TestCredential(t *testing.T) {
	c, err := Credential("", "root")
	if os.Geteuid() != 0 {
		if c != nil || err != nil {
			t.Errorf("not root: got %v, %v; want nil, nil", c, err)
		}
		return
	}
	if err != nil || c == nil || c.Uid != 0 {
		t.Errorf("root's fallback root: %v, %v", c, err)
	}
	if _, err := Credential("no-such-user-wra", "root"); err == nil {
		t.Error("an unknown user: no error")
	}
}

func TestChownTree(t *testing.T) {
	if err := ChownTree("/no/such/folder", nil); err != nil {
		t.Errorf("nil credential must leave the tree alone: %v", err)
	}
	dir := t.TempDir()
	if os.Geteuid() == 0 {
		cred, _ := Credential("", "root")
		if err := ChownTree("/no/such/folder", cred); err == nil {
			t.Error("a missing folder: no error")
		}
		if err := ChownTree(dir, cred); err != nil {
			t.Error(err)
		}
	}
}
