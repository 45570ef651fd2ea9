package shell

import (
	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// rawMode puts the terminal fd in raw mode for line editing and returns
// what restores it. x/term's raw mode also stops output processing, so
// that a newline would not return the carriage; line editors keep it,
// and so does this.
var rawMode = func(fd int) (restore func() error, err error) {
	st, err := term.MakeRaw(fd)
	if err != nil {
		return nil, err
	}
	t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err == nil {
		t.Oflag |= unix.OPOST | unix.ONLCR
		err = unix.IoctlSetTermios(fd, unix.TCSETS, t)
	}
	if err != nil {
		term.Restore(fd, st)
		return nil, err
	}
	return func() error { return term.Restore(fd, st) }, nil
}
