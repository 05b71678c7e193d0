// zarf-conformance: reads package Secrets the way Zarf v0.84.0 (and a Zarf
// with ZEP-0026's types) would, to prove that Zarf's own decoding accepts
// what zarf-state writes. Standard library only. See docs/zarf-conformance.md.
package main

import (
	"fmt"
	"os"
)

const usage = `usage:
  zarf-conformance list FILE...                     list package Secrets as Zarf v0.84 does
  zarf-conformance roundtrip [-data=exact] [-types=v084] FILE...
                                                    decode with ZEP-0026 (or v0.84) types, re-marshal, compare
  zarf-conformance marshal-package FILE             json.Marshal of FILE as a v1alpha1.ZarfPackage
  zarf-conformance check-vectors FILE.jsonl[.gz]    marshal-package over {"input","go"|"error"} lines
  zarf-conformance check-types TYPES.json           compare the Go types with Zarf's field table
  zarf-conformance payload [-definition] FILE       print the package Secret's payload (or its data member)
exit 0: all good; 1: a check failed; 2: usage`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	cmds := map[string]func([]string) (bool, error){
		"list":            runList,
		"roundtrip":       runRoundtrip,
		"marshal-package": runMarshalPackage,
		"check-vectors":   runCheckVectors,
		"check-types":     runCheckTypes,
		"payload":         runPayload,
	}
	cmd, ok := cmds[os.Args[1]]
	if !ok {
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	passed, err := cmd(os.Args[2:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "zarf-conformance:", err)
		os.Exit(2)
	}
	if !passed {
		os.Exit(1)
	}
}
