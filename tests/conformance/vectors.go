// marshal-package and check-vectors: Go's json.Marshal of a package
// definition through the v0.84 types, checked against recorded Go output.
package main

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// marshalPackage is what Zarf stores as a Secret's data for definition in.
func marshalPackage(in []byte) ([]byte, error) {
	var def ZarfPackage
	if err := json.Unmarshal(in, &def); err != nil {
		return nil, err
	}
	return json.Marshal(&def)
}

func runMarshalPackage(args []string) (bool, error) {
	if len(args) != 1 {
		return false, errors.New("marshal-package: want one FILE")
	}
	in, err := os.ReadFile(args[0])
	if err != nil {
		return false, err
	}
	out, err := marshalPackage(in)
	if err != nil {
		fmt.Println("error:", err)
		return false, nil
	}
	os.Stdout.Write(out)
	fmt.Println()
	return true, nil
}

type vector struct {
	Input string  `json:"input"`
	Go    *string `json:"go"`
	Error *string `json:"error"`
}

// runCheckVectors feeds each line's input through marshalPackage: it must
// give the line's `go` bytes exactly, or be refused when the line has `error`.
func runCheckVectors(args []string) (bool, error) {
	if len(args) != 1 {
		return false, errors.New("check-vectors: want one FILE")
	}
	f, err := os.Open(args[0])
	if err != nil {
		return false, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(args[0], ".gz") {
		if r, err = gzip.NewReader(f); err != nil {
			return false, fmt.Errorf("%s: %v", args[0], err)
		}
	}
	lines := bufio.NewScanner(r)
	lines.Buffer(nil, 64<<20)
	ok, n := true, 0
	for lineNo := 1; lines.Scan(); lineNo++ {
		if len(strings.TrimSpace(lines.Text())) == 0 {
			continue
		}
		var v vector
		if err := json.Unmarshal(lines.Bytes(), &v); err != nil || (v.Go == nil) == (v.Error == nil) {
			return false, fmt.Errorf("%s:%d: not a vector line (want input and one of go, error)", args[0], lineNo)
		}
		n++
		out, err := marshalPackage([]byte(v.Input))
		switch {
		case v.Error != nil && err == nil:
			fmt.Printf("FAIL %s:%d: Go refuses this input (%s), ours accepted it\n", args[0], lineNo, *v.Error)
			ok = false
		case v.Go != nil && err != nil:
			fmt.Printf("FAIL %s:%d: Go accepts this input, ours refused it: %v\n", args[0], lineNo, err)
			ok = false
		case v.Go != nil:
			if msg := firstDifference(out, []byte(*v.Go), "ours", "Go's recorded bytes"); msg != "" {
				fmt.Printf("FAIL %s:%d: %s\n", args[0], lineNo, msg)
				ok = false
			}
		}
	}
	if err := lines.Err(); err != nil {
		return false, fmt.Errorf("%s: %v", args[0], err)
	}
	fmt.Printf("check-vectors: %d vectors: %s\n", n, map[bool]string{true: "ok", false: "FAILED"}[ok])
	return ok, nil
}
