//go:build !linux

package shell

// rawMode is nil where the shell leaves raw mode to readline, which
// puts the process's standard input in it.
var rawMode func(fd int) (restore func() error, err error)
