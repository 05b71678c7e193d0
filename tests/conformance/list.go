// The list and roundtrip subcommands.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// runList lists every package Secret of the files as Zarf v0.84's
// GetDeployedZarfPackages does; any decode error fails.
func runList(args []string) (bool, error) {
	if len(args) == 0 {
		return false, errors.New("list: no FILE")
	}
	ok, listed, total, err := eachPackageSecret(args, func(c candidate) string {
		pkg, _, err := decodeV084(c)
		if err != nil {
			return "Zarf v0.84 cannot decode data: " + err.Error()
		}
		fmt.Printf("listed %s: package %q, generation %d, %d deployed components, %d in definition\n",
			c.id(), pkg.Name, pkg.Generation, len(pkg.DeployedComponents), len(pkg.Data.Components))
		return ""
	})
	if err != nil {
		return false, err
	}
	fmt.Printf("list: %d package Secrets of %d objects: %s\n", listed, total, verdict(ok))
	return ok, nil
}

// skipped is what a check returns for a Secret it passed over (and said why).
const skipped = "\x00skipped"

// eachPackageSecret runs check on every Secret of the files that Zarf's
// listing takes, printing the others as skipped; check returns "" when the
// Secret passed, skipped, or why it failed (printed as a FAIL line). Returns
// whether all passed and how many were checked, of how many objects.
func eachPackageSecret(files []string, check func(candidate) string) (ok bool, checked, total int, err error) {
	all, err := collect(files)
	if err != nil {
		return false, 0, 0, err
	}
	ok = true
	for _, c := range all {
		if reason := selectPackage(c); reason != "" {
			fmt.Printf("skipped %s: %s\n", c.id(), reason)
			continue
		}
		switch msg := check(c); msg {
		case skipped:
		case "":
			checked++
		default:
			checked++
			ok = false
			fmt.Printf("FAIL %s: %s\n", c.id(), msg)
		}
	}
	return ok, checked, len(all), nil
}

func verdict(ok bool) string {
	if ok {
		return "ok"
	}
	return "FAILED (one error fails Zarf's whole listing)"
}

// runRoundtrip decodes each listed package Secret into the ZEP-0026 types,
// re-marshals it and compares with the stored bytes (less the keys those
// types do not declare).
func runRoundtrip(args []string) (bool, error) {
	fs := flag.NewFlagSet("roundtrip", flag.ContinueOnError)
	dataMode := fs.String("data", "decode",
		"decode: data must decode into v1alpha1.ZarfPackage; exact: and equal its re-marshal")
	types := fs.String("types", "zep",
		"zep: ZEP-0026's types; v084: Zarf v0.84's own (for Secrets in the shape v0.84 writes)")
	if err := fs.Parse(args); err != nil {
		return false, err
	}
	if *types != "zep" && *types != "v084" {
		return false, fmt.Errorf("roundtrip: -types=%s: want zep or v084", *types)
	}
	if *dataMode != "decode" && *dataMode != "exact" {
		return false, fmt.Errorf("roundtrip: -data=%s: want decode or exact", *dataMode)
	}
	if fs.NArg() == 0 {
		return false, errors.New("roundtrip: no FILE")
	}
	ok, checked, total, err := eachPackageSecret(fs.Args(), func(c candidate) string {
		p, has, err := payload(c)
		if err != nil {
			return err.Error()
		}
		if !has {
			fmt.Printf("skipped %s: no data key (compact codec?); list decides whether Zarf reads it\n", c.id())
			return skipped
		}
		if msg := roundtripOne(p, *types == "v084", *dataMode == "exact"); msg != "" {
			return msg
		}
		fmt.Printf("ok %s: %d bytes\n", c.id(), len(p))
		return ""
	})
	if err != nil {
		return false, err
	}
	fmt.Printf("roundtrip: %d checked of %d objects: %s\n", checked, total, map[bool]string{true: "ok", false: "FAILED"}[ok])
	return ok, nil
}

// roundtripOne returns "" when p survives the round trip through the ZEP
// types (or v0.84's, when v084), else why not.
func roundtripOne(p []byte, v084, exactData bool) string {
	var zep ZepDeployedPackage
	var old V084RawDeployedPackage
	target, typesName, data := any(&zep), "ZEP-0026 types", &zep.Data
	if v084 {
		target, typesName, data = &old, "Zarf v0.84 types", &old.Data
	}
	if err := json.Unmarshal(p, target); err != nil {
		return typesName + " cannot decode it: " + err.Error()
	}
	var def ZarfPackage
	if err := json.Unmarshal(*data, &def); err != nil {
		return "data does not decode into v1alpha1.ZarfPackage: " + err.Error()
	}
	goBytes, err := json.Marshal(target)
	if err != nil {
		return "json.Marshal: " + err.Error()
	}
	var ours []byte
	removed := map[string]int{}
	stripUndeclared(&scanner{b: p}, reflect.TypeOf(target).Elem(), "", &ours, removed)
	var notes []string
	if len(removed) > 0 {
		notes = append(notes, "(ignored keys the "+typesName+" do not declare: "+describeRemoved(removed)+")")
	}
	// Both comparisons are reported, so one difference does not hide the other.
	var failures []string
	if msg := firstDifference(ours, goBytes, "payload without undeclared keys", "Go's json.Marshal"); msg != "" {
		if missing := missingKeys(ours, goBytes); missing != "" {
			notes = append([]string{"(keys Go writes that the payload lacks: " + missing + ")"}, notes...)
		}
		failures = append(failures, strings.Join(append([]string{msg}, notes...), "\n    "))
	}
	if exactData {
		goData, err := json.Marshal(&def)
		if err != nil {
			return "json.Marshal of data: " + err.Error()
		}
		if msg := firstDifference(*data, goData, "data", "Go's json.Marshal of it"); msg != "" {
			failures = append(failures, "-data=exact: "+msg)
		}
	}
	return strings.Join(failures, "\n    ")
}

func describeRemoved(removed map[string]int) string {
	var keys []string
	for k, n := range removed {
		keys = append(keys, fmt.Sprintf("%s x%d", k, n))
	}
	sort.Strings(keys)
	return strings.Join(keys, ", ")
}

// firstDifference names the first byte where ours and theirs differ, the
// JSON path there and some context of both, or returns "" when equal.
func firstDifference(ours, theirs []byte, oursName, theirsName string) string {
	if bytes.Equal(ours, theirs) {
		return ""
	}
	i := 0
	for i < len(ours) && i < len(theirs) && ours[i] == theirs[i] {
		i++
	}
	ctx := func(b []byte) string {
		lo, hi := i-60, i+60
		if lo < 0 {
			lo = 0
		}
		if hi > len(b) {
			hi = len(b)
		}
		return fmt.Sprintf("%s>>>%s", b[lo:i], b[i:hi])
	}
	return fmt.Sprintf("differs at byte %d (%d vs %d bytes), near %s\n    %-32s ...%s\n    %-32s ...%s",
		i, len(ours), len(theirs), pathLabel(theirs, i), oursName+":", ctx(ours), theirsName+":", ctx(theirs))
}

func pathLabel(b []byte, off int) string {
	if p := pathAt(b, off); p != "" {
		return p
	}
	return "the top level"
}
