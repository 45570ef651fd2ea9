//go:build !dynamic_libstdcxx

package store

// DuckDB's bindings link the C++ runtime with -lstdc++, which finds the
// shared libstdc++: every start of wra then made the dynamic linker look
// up thousands of C++ symbols in it, a tenth of the time of `wra version`.
// The folder link/ holds a linker script named libstdc++.so that names
// the static archive instead; GNU ld searches -L folders before the
// system ones, wherever they stand on the command line, so -lstdc++ finds
// the script first. The binary then needs no libstdc++ at run time.
//
// Debian and Ubuntu install libstdc++.a with the shared library's -dev
// package; where it is a package of its own (Fedora: libstdc++-static),
// install it, or build with -tags dynamic_libstdcxx to link the shared
// one as before.

// #cgo LDFLAGS: -L${SRCDIR}/link
import "C"
