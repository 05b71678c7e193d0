package main

// The migration benchmark's peers (bench/run_migrate_vs_go.sh): Go's
// encoding/json over the payloads of a List of package Secrets.
//
//	go/payloads_typed  each payload (one per line of a JSON Lines file)
//	                   json.Unmarshal into DeployedPackage, then json.Marshal
//	go/list_pipeline   the whole List: json.Unmarshal of the List (Secret
//	                   data as []byte, so base64 is decoded), each payload
//	                   decoded and encoded as above, the List written back
//	                   with json.MarshalIndent, as kubectl prints it
//
// `bytes` is the total payload bytes of one pass over the corpus for both,
// so their rates compare with zarf-state's migrate of the same List.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"time"
)

type secret struct {
	APIVersion string            `json:"apiVersion"`
	Data       map[string][]byte `json:"data"`
	Kind       string            `json:"kind"`
	Metadata   map[string]any    `json:"metadata"`
	Type       string            `json:"type"`
}

type secretList struct {
	APIVersion string         `json:"apiVersion"`
	Items      []secret       `json:"items"`
	Kind       string         `json:"kind"`
	Metadata   map[string]any `json:"metadata"`
}

func roundTrip(payload []byte) ([]byte, error) {
	var p DeployedPackage
	if err := json.Unmarshal(payload, &p); err != nil {
		return nil, err
	}
	return json.Marshal(&p)
}

func runBatch(linesFile, listFile string, minTime time.Duration) error {
	f, err := os.Open(linesFile)
	if err != nil {
		return err
	}
	defer f.Close()
	var payloads [][]byte
	total := 0
	scanner := bufio.NewScanner(f)
	scanner.Buffer(make([]byte, 1<<20), 64<<20)
	for scanner.Scan() {
		line := append([]byte(nil), scanner.Bytes()...)
		payloads = append(payloads, line)
		total += len(line)
	}
	if err := scanner.Err(); err != nil {
		return err
	}
	err = measure("go/payloads_typed", total, minTime, func() error {
		for _, p := range payloads {
			out, err := roundTrip(p)
			if err != nil {
				return err
			}
			sink = out
		}
		return nil
	})
	if err != nil || listFile == "" {
		return err
	}
	list, err := os.ReadFile(listFile)
	if err != nil {
		return err
	}
	return measure("go/list_pipeline", total, minTime, func() error {
		var l secretList
		if err := json.Unmarshal(list, &l); err != nil {
			return err
		}
		for i := range l.Items {
			out, err := roundTrip(l.Items[i].Data["data"])
			if err != nil {
				return err
			}
			l.Items[i].Data["data"] = out
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "    ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(&l); err != nil {
			return err
		}
		sink = buf.Bytes()
		return nil
	})
}
