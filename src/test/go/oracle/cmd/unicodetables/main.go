// Command unicodetables prints the two Unicode tables of the Go toolchain it is built with that the sidecar
// follows instead of the JDK's: the printable code points of strconv.IsPrint (what %q and strconv.Quote leave
// unescaped) and the case folding encoding/json applies to object keys (foldRune in encoding/json/fold.go: the
// smallest code point of each unicode.SimpleFold orbit). The sidecar keeps this output as its resource
// dev/dra/sidecar/decode/gojson/go-unicode-tables.txt; a test regenerates it and compares.
//
// Lines: "print LO HI" (an inclusive range of printable code points, hex) and "fold R TO" (a code point and
// the one it folds to, hex; code points not listed fold to themselves).
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"unicode"
)

func main() {
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	fmt.Fprintf(out, "# Unicode %s (Go's tables): strconv.IsPrint ranges and encoding/json key folding\n", unicode.Version)
	start := rune(-1)
	for r := rune(0); r <= unicode.MaxRune+1; r++ {
		printable := r <= unicode.MaxRune && strconv.IsPrint(r)
		if printable && start < 0 {
			start = r
		} else if !printable && start >= 0 {
			fmt.Fprintf(out, "print %x %x\n", start, r-1)
			start = -1
		}
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if f := foldRune(r); f != r {
			fmt.Fprintf(out, "fold %x %x\n", r, f)
		}
	}
}

// foldRune is encoding/json's: the smallest rune of r's fold orbit.
func foldRune(r rune) rune {
	for {
		r2 := unicode.SimpleFold(r)
		if r2 <= r {
			return r2
		}
		r = r2
	}
}
