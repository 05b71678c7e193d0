// Command go_json measures Go's encoding/json on a Zarf DeployedPackage
// payload, as the peer that zarf-state's C++ JSON codec is compared with.
//
// Usage: go_json -f FILE [-min-time 2s]
//
// Four measurements run one after another, each for at least -min-time:
//
//	go/decode_any    json.Unmarshal into `any` (maps, []any, float64)
//	go/encode_any    json.Marshal of that decoded value
//	go/decode_typed  json.Unmarshal into a struct mirroring Zarf's
//	                 DeployedPackage (with `data` as map[string]any)
//	go/encode_typed  json.Marshal of that struct
//
// Each prints one JSON line on stdout:
//
//	{"name":"go/decode_any","bytes":N,"iterations":K,"seconds":S,"mib_per_s":X,
//	 "cpu_seconds":C,"mib_per_cpu_s":Y}
//
// `bytes` is the size of the input document for every measurement, so that
// decode and encode rates are per document and can be combined:
// bytes / (t_decode + t_encode). MiB/s = bytes*iterations/seconds/1048576.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"syscall"
	"time"
)

// ConnectString mirrors Zarf's types.ConnectString.
type ConnectString struct {
	Description string `json:"description"`
	URL         string `json:"url"`
}

// ConnectStrings mirrors Zarf's types.ConnectStrings.
type ConnectStrings map[string]ConnectString

// InstalledChart mirrors Zarf's types.InstalledChart.
type InstalledChart struct {
	Namespace      string         `json:"namespace"`
	ChartName      string         `json:"chartName"`
	ConnectStrings ConnectStrings `json:"connectStrings,omitempty"`
	Status         string         `json:"status"`
}

// DeployedComponent mirrors Zarf's types.DeployedComponent.
type DeployedComponent struct {
	Name               string           `json:"name"`
	InstalledCharts    []InstalledChart `json:"installedCharts"`
	Status             string           `json:"status"`
	ObservedGeneration int              `json:"observedGeneration"`
}

// DeployedPackage mirrors Zarf's types.DeployedPackage. Data is decoded as a
// generic map rather than json.RawMessage: skipping it would not be a fair
// comparison with a reader that builds a tree of the whole document.
type DeployedPackage struct {
	Name                string              `json:"name"`
	Digest              string              `json:"digest,omitempty"`
	Data                map[string]any      `json:"data"`
	CLIVersion          string              `json:"cliVersion"`
	Generation          int                 `json:"generation"`
	DeployedComponents  []DeployedComponent `json:"deployedComponents"`
	ConnectStrings      ConnectStrings      `json:"connectStrings,omitempty"`
	PackageConnectivity string              `json:"packageConnectivity,omitempty"`
	NamespaceOverride   string              `json:"namespaceOverride,omitempty"`
}

// sink keeps results reachable so no work can be optimised away.
var sink any

type result struct {
	Name       string  `json:"name"`
	Bytes      int     `json:"bytes"`
	Iterations int     `json:"iterations"`
	Seconds    float64 `json:"seconds"`
	MiBPerS    float64 `json:"mib_per_s"`
	// The same rate by the process's CPU time (user + system, every
	// thread: the garbage collector's work included).
	CPUSeconds   float64 `json:"cpu_seconds"`
	MiBPerCPUSec float64 `json:"mib_per_cpu_s"`
}

// cpuSeconds is the user + system time the process has used so far.
func cpuSeconds() float64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return float64(u.Utime.Nano()+u.Stime.Nano()) / 1e9
}

// measure runs op a few times to warm up, then repeatedly until at least
// minTime has elapsed, and reports the rate per input document.
func measure(name string, docBytes int, minTime time.Duration, op func() error) error {
	for i := 0; i < 3; i++ {
		if err := op(); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	iterations := 0
	cpuStart := cpuSeconds()
	start := time.Now()
	var elapsed time.Duration
	for elapsed < minTime {
		if err := op(); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		iterations++
		elapsed = time.Since(start)
	}
	seconds := elapsed.Seconds()
	cpu := cpuSeconds() - cpuStart
	line, err := json.Marshal(result{
		Name:         name,
		Bytes:        docBytes,
		Iterations:   iterations,
		Seconds:      seconds,
		MiBPerS:      float64(docBytes) * float64(iterations) / seconds / 1048576,
		CPUSeconds:   cpu,
		MiBPerCPUSec: float64(docBytes) * float64(iterations) / cpu / 1048576,
	})
	if err != nil {
		return err
	}
	fmt.Println(string(line))
	return nil
}

func run(file string, minTime time.Duration) error {
	input, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	n := len(input)

	// The values the encode measurements marshal, decoded once up front.
	var decodedAny any
	if err := json.Unmarshal(input, &decodedAny); err != nil {
		return fmt.Errorf("decoding %s into any: %w", file, err)
	}
	var decodedTyped DeployedPackage
	if err := json.Unmarshal(input, &decodedTyped); err != nil {
		return fmt.Errorf("decoding %s into DeployedPackage: %w", file, err)
	}

	steps := []struct {
		name string
		op   func() error
	}{
		{"go/decode_any", func() error {
			var v any
			err := json.Unmarshal(input, &v)
			sink = v
			return err
		}},
		{"go/encode_any", func() error {
			out, err := json.Marshal(decodedAny)
			sink = out
			return err
		}},
		{"go/decode_typed", func() error {
			var v DeployedPackage
			err := json.Unmarshal(input, &v)
			sink = &v
			return err
		}},
		{"go/encode_typed", func() error {
			out, err := json.Marshal(&decodedTyped)
			sink = out
			return err
		}},
	}
	for _, s := range steps {
		if err := measure(s.name, n, minTime, s.op); err != nil {
			return err
		}
	}
	return nil
}

func main() {
	file := flag.String("f", "", "DeployedPackage JSON payload to measure")
	lines := flag.String("lines", "", "JSON Lines of payloads: measure the batch (batch.go)")
	list := flag.String("list", "", "with -lines: the List of Secrets holding those payloads")
	minTime := flag.Duration("min-time", 2*time.Second, "minimum duration of each measurement")
	flag.Parse()
	if (*file == "") == (*lines == "") || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: go_json -f FILE [-min-time 2s] | go_json -lines FILE [-list FILE] [-min-time 2s]")
		os.Exit(2)
	}
	var err error
	if *lines != "" {
		err = runBatch(*lines, *list, *minTime)
	} else {
		err = run(*file, *minTime)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "go_json:", err)
		os.Exit(1)
	}
}
