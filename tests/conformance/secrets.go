// Reading Secrets as `kubectl get -o json` prints them, and choosing the ones
// Zarf v0.84's GetDeployedZarfPackages lists.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

const (
	packageLabel  = "package-deploy-info"
	packagePrefix = "zarf-package-"
	zarfNamespace = "zarf"
)

type objectMeta struct {
	Name        string            `json:"name"`
	Namespace   string            `json:"namespace"`
	Labels      map[string]string `json:"labels"`
	Annotations map[string]string `json:"annotations"`
}

// object is one Kubernetes object of the input; Items is set for a List.
type object struct {
	Kind     string            `json:"kind"`
	Metadata objectMeta        `json:"metadata"`
	Items    []json.RawMessage `json:"items"`
	raw      json.RawMessage
}

// secretData is the data map as client-go decodes it: base64 into []byte.
type secretData struct {
	Data map[string][]byte `json:"data"`
}

// candidate is a Secret of the input with where it came from.
type candidate struct {
	file string
	obj  object
}

func (c candidate) id() string {
	ns := c.obj.Metadata.Namespace
	if ns == "" {
		ns = zarfNamespace
	}
	return c.file + ": " + ns + "/" + c.obj.Metadata.Name
}

// readObjects returns every Secret (or other object) in file: a single
// object, a List's items, or several JSON objects one after another.
func readObjects(file string) ([]candidate, error) {
	text, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	var out []candidate
	for {
		var raw json.RawMessage
		if err := dec.Decode(&raw); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("%s: not JSON: %v", file, err)
		}
		var obj object
		if err := json.Unmarshal(raw, &obj); err != nil {
			return nil, fmt.Errorf("%s: not a Kubernetes object: %v", file, err)
		}
		if strings.HasSuffix(obj.Kind, "List") {
			for i, item := range obj.Items {
				var it object
				if err := json.Unmarshal(item, &it); err != nil {
					return nil, fmt.Errorf("%s: items[%d]: not a Kubernetes object: %v", file, i, err)
				}
				it.raw = item
				out = append(out, candidate{file, it})
			}
			continue
		}
		obj.raw = raw
		out = append(out, candidate{file, obj})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no Kubernetes object in it", file)
	}
	return out, nil
}

// selectPackage says why Zarf's listing would pass over c ("" when it lists it).
func selectPackage(c candidate) string {
	m := c.obj.Metadata
	switch {
	case c.obj.Kind != "Secret":
		return "not a Secret (kind " + c.obj.Kind + ")"
	case m.Namespace != "" && m.Namespace != zarfNamespace:
		return "namespace " + m.Namespace + ", Zarf lists namespace zarf"
	}
	if _, ok := m.Labels[packageLabel]; !ok {
		return "no label " + packageLabel
	}
	if !strings.HasPrefix(m.Name, packagePrefix) {
		return "name without prefix " + packagePrefix
	}
	return ""
}

// payload returns the decoded data["data"] (nil when the key is absent) and
// whether the key is there.
func payload(c candidate) ([]byte, bool, error) {
	var d secretData
	if err := json.Unmarshal(c.obj.raw, &d); err != nil {
		return nil, false, err
	}
	p, ok := d.Data["data"]
	return p, ok, nil
}

// decodeV084 does what GetDeployedZarfPackages does with one Secret.
func decodeV084(c candidate) (*DeployedPackage, []byte, error) {
	p, _, err := payload(c)
	if err != nil {
		return nil, nil, err
	}
	var pkg DeployedPackage
	if err := json.Unmarshal(p, &pkg); err != nil {
		return nil, p, err
	}
	return &pkg, p, nil
}

// collect reads every file; a file that cannot be read is an error.
func collect(files []string) ([]candidate, error) {
	var all []candidate
	for _, f := range files {
		objs, err := readObjects(f)
		if err != nil {
			return nil, err
		}
		all = append(all, objs...)
	}
	return all, nil
}

// runPayload prints the decoded data["data"] of the one package Secret in
// FILE, or with -definition only its package definition (the `data` member).
func runPayload(args []string) (bool, error) {
	definition := len(args) == 2 && args[0] == "-definition"
	if definition {
		args = args[1:]
	}
	if len(args) != 1 {
		return false, errors.New("payload: want [-definition] FILE")
	}
	objs, err := readObjects(args[0])
	if err != nil {
		return false, err
	}
	var found []candidate
	for _, c := range objs {
		if selectPackage(c) == "" {
			found = append(found, c)
		}
	}
	if len(found) != 1 {
		return false, fmt.Errorf("%s: %d package Secrets, want one", args[0], len(found))
	}
	p, has, err := payload(found[0])
	if err != nil || !has {
		return false, fmt.Errorf("%s: no data key (%v)", found[0].id(), err)
	}
	if definition {
		var top struct {
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(p, &top); err != nil {
			return false, fmt.Errorf("%s: %v", found[0].id(), err)
		}
		p = top.Data
	}
	_, err = os.Stdout.Write(p)
	return err == nil, err
}
