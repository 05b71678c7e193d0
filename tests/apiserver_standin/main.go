// apiserver-standin is a STAND-IN for the Kubernetes API server, for tests
// only: it serves the few endpoints that `kubectl get secrets` and `kubectl
// replace -f` use, over plain HTTP on 127.0.0.1, from Secrets held in memory.
// It is not a Kubernetes API server and checks nothing but what the tests
// need: discovery (/api, /apis, /api/v1, /version), GET of a Secret, LIST
// of a namespace's Secrets with a labelSelector (key, !key, key=value,
// key!=value, comma meaning and), WATCH of them (watch=true: the changes
// after `resourceVersion` as streamed watch events, or ADDED for each
// Secret first when none is given; an ERROR event with a 410 Gone Status for
// a resourceVersion older than the last -history changes), and PUT with
// optimistic concurrency (409 Conflict for a stale
// metadata.resourceVersion). Standard library only.
//
// A scripted writer (-script FILE) replays a sequence of writes, as a
// writer such as Zarf makes them, once the file -script-start exists: JSON
// Lines, each {"apply": SECRET} (created or replaced, as a server-side apply
// with force does) or {"delete": {"namespace": NS, "name": NAME}}, one every
// -script-interval; it touches -script-done when the last is applied.
//
// Usage:
//
//	apiserver-standin -kubeconfig OUT [-seed FILE]... [-forbid NS]... [-log FILE]
//	                  [-history N] [-script FILE -script-start FILE -script-done FILE]
//
// Seeds are Secrets, Lists of them or Secret streams (JSON). Once listening,
// it writes a kubeconfig for it (context "standin") to OUT, atomically, and
// logs each request ("METHOD PATH?QUERY") to -log. A namespace named by
// -forbid answers 403, as RBAC would. It exits after -lifetime.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

type object = map[string]interface{}

type store struct {
	mu      sync.Mutex
	version int
	// namespace -> name -> Secret (without kind and apiVersion, as stored)
	secrets map[string]map[string]object
	forbid  map[string]bool
	log     io.Writer
	// The last `keep` changes, oldest first, for watches; changed wakes them.
	changes []change
	keep    int
	changed *sync.Cond
}

// change is one watch event: the object as it was after (or, deleted, before) it.
type change struct {
	version int
	kind    string // ADDED, MODIFIED, DELETED
	ns      string
	obj     object
}

// record appends a change; the caller holds s.mu.
func (s *store) record(kind, ns string, o object) {
	v, _ := strconv.Atoi(metadata(o)["resourceVersion"].(string))
	s.changes = append(s.changes, change{v, kind, ns, o})
	if len(s.changes) > s.keep {
		s.changes = s.changes[len(s.changes)-s.keep:]
	}
	s.changed.Broadcast()
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

func metadata(o object) object {
	md, _ := o["metadata"].(object)
	if md == nil {
		md = object{}
		o["metadata"] = md
	}
	return md
}

func (s *store) nextVersion() string {
	s.version++
	return strconv.Itoa(s.version)
}

// add stores one seeded object; a List's items are added one by one.
func (s *store) add(o object) error {
	if items, ok := o["items"].([]interface{}); ok {
		for _, it := range items {
			io, ok := it.(object)
			if !ok {
				return fmt.Errorf("a List item is not an object")
			}
			if err := s.add(io); err != nil {
				return err
			}
		}
		return nil
	}
	if o["kind"] != "Secret" {
		return fmt.Errorf("seed object of kind %v: only Secrets are served", o["kind"])
	}
	md := metadata(o)
	name, _ := md["name"].(string)
	if name == "" {
		return fmt.Errorf("seed Secret without metadata.name")
	}
	ns, _ := md["namespace"].(string)
	if ns == "" {
		ns = "zarf"
		md["namespace"] = ns
	}
	md["resourceVersion"] = s.nextVersion()
	delete(o, "kind")
	delete(o, "apiVersion")
	if s.secrets[ns] == nil {
		s.secrets[ns] = map[string]object{}
	}
	s.secrets[ns][name] = o
	return nil
}

func (s *store) seed(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	dec.UseNumber()
	for {
		var o object
		if err := dec.Decode(&o); err == io.EOF {
			return nil
		} else if err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		if err := s.add(o); err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
	}
}

// matches reports whether `labels` satisfy a labelSelector.
func matches(selector string, labels map[string]interface{}) bool {
	for _, term := range strings.Split(selector, ",") {
		term = strings.TrimSpace(term)
		if term == "" {
			continue
		}
		switch {
		case strings.Contains(term, "!="):
			kv := strings.SplitN(term, "!=", 2)
			if v, ok := labels[kv[0]]; ok && v == kv[1] {
				return false
			}
		case strings.Contains(term, "="):
			kv := strings.SplitN(strings.Replace(term, "==", "=", 1), "=", 2)
			if v, ok := labels[kv[0]]; !ok || v != kv[1] {
				return false
			}
		case strings.HasPrefix(term, "!"):
			if _, ok := labels[term[1:]]; ok {
				return false
			}
		default:
			if _, ok := labels[term]; !ok {
				return false
			}
		}
	}
	return true
}

func write(w http.ResponseWriter, code int, body interface{}) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(body)
}

func status(w http.ResponseWriter, code int, reason, message string) {
	write(w, code, object{"kind": "Status", "apiVersion": "v1", "metadata": object{},
		"status": "Failure", "message": message, "reason": reason, "code": code})
}

func withKind(o object) object {
	out := object{"kind": "Secret", "apiVersion": "v1"}
	for k, v := range o {
		out[k] = v
	}
	return out
}

func (s *store) serveSecrets(w http.ResponseWriter, r *http.Request, ns, name string) {
	if name == "" && r.Method == http.MethodGet && r.URL.Query().Get("watch") != "" {
		s.serveWatch(w, r, ns)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.forbid[ns] {
		verb := map[string]string{"GET": "get", "PUT": "update"}[r.Method]
		if name == "" {
			verb = "list"
		}
		status(w, http.StatusForbidden, "Forbidden", fmt.Sprintf(
			`secrets is forbidden: User "standin" cannot %s resource "secrets" in API group "" in the namespace "%s"`,
			verb, ns))
		return
	}
	if name == "" && r.Method == http.MethodGet {
		selector := r.URL.Query().Get("labelSelector")
		names := make([]string, 0, len(s.secrets[ns]))
		for n := range s.secrets[ns] {
			names = append(names, n)
		}
		sort.Strings(names)
		items := []interface{}{}
		for _, n := range names {
			labels, _ := metadata(s.secrets[ns][n])["labels"].(map[string]interface{})
			if matches(selector, labels) {
				items = append(items, s.secrets[ns][n])
			}
		}
		write(w, http.StatusOK, object{"kind": "SecretList", "apiVersion": "v1",
			"metadata": object{"resourceVersion": strconv.Itoa(s.version)}, "items": items})
		return
	}
	current, found := s.secrets[ns][name]
	switch {
	case name == "":
		status(w, http.StatusMethodNotAllowed, "MethodNotAllowed", "the stand-in lists and gets only")
	case r.Method == http.MethodGet && found:
		write(w, http.StatusOK, withKind(current))
	case r.Method == http.MethodGet || r.Method == http.MethodPut && !found:
		status(w, http.StatusNotFound, "NotFound", fmt.Sprintf(`secrets "%s" not found`, name))
	case r.Method == http.MethodPut:
		dec := json.NewDecoder(r.Body)
		dec.UseNumber()
		var o object
		if err := dec.Decode(&o); err != nil {
			status(w, http.StatusBadRequest, "BadRequest", err.Error())
			return
		}
		md := metadata(o)
		if md["name"] != name {
			status(w, http.StatusBadRequest, "BadRequest", "the name of the object does not match the URL")
			return
		}
		rv, _ := md["resourceVersion"].(string)
		if rv != "" && rv != metadata(current)["resourceVersion"] {
			status(w, http.StatusConflict, "Conflict", fmt.Sprintf(
				`Operation cannot be fulfilled on secrets "%s": the object has been modified; `+
					`please apply your changes to the latest version and try again`, name))
			return
		}
		md["namespace"] = ns
		md["resourceVersion"] = s.nextVersion()
		delete(o, "kind")
		delete(o, "apiVersion")
		s.secrets[ns][name] = o
		s.record("MODIFIED", ns, o)
		write(w, http.StatusOK, withKind(o))
	default:
		status(w, http.StatusMethodNotAllowed, "MethodNotAllowed", "the stand-in gets, lists and replaces only")
	}
}

// event writes one watch event and flushes it; the caller holds s.mu.
func event(w http.ResponseWriter, kind string, o object) bool {
	if err := json.NewEncoder(w).Encode(object{"type": kind, "object": o}); err != nil {
		return false
	}
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	return true
}

// serveWatch streams the changes of namespace ns after the request's
// resourceVersion until the client goes or the stand-in exits.
func (s *store) serveWatch(w http.ResponseWriter, r *http.Request, ns string) {
	selector := r.URL.Query().Get("labelSelector")
	from, _ := strconv.Atoi(r.URL.Query().Get("resourceVersion"))
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	gone := false
	go func() {
		<-r.Context().Done()
		s.mu.Lock()
		gone = true
		s.changed.Broadcast()
		s.mu.Unlock()
	}()
	s.mu.Lock()
	defer s.mu.Unlock()
	if from == 0 {
		names := make([]string, 0, len(s.secrets[ns]))
		for n := range s.secrets[ns] {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			labels, _ := metadata(s.secrets[ns][n])["labels"].(map[string]interface{})
			if matches(selector, labels) && !event(w, "ADDED", withKind(s.secrets[ns][n])) {
				return
			}
		}
		from = s.version
	} else if from < s.version && (len(s.changes) == 0 || s.changes[0].version > from+1) {
		event(w, "ERROR", object{"kind": "Status", "apiVersion": "v1", "metadata": object{},
			"status": "Failure", "reason": "Expired", "code": 410,
			"message": fmt.Sprintf("too old resource version: %d (%d)", from, s.version)})
		return
	}
	for !gone {
		for _, c := range s.changes {
			if c.version <= from || c.ns != ns {
				continue
			}
			from = c.version
			labels, _ := metadata(c.obj)["labels"].(map[string]interface{})
			if matches(selector, labels) && !event(w, c.kind, withKind(c.obj)) {
				return
			}
		}
		s.changed.Wait()
	}
}

// script replays the writes of `path` once `start` exists, one per
// `interval`, then creates `done`.
func (s *store) script(path, start, done string, interval time.Duration) {
	data, err := os.ReadFile(path)
	if err != nil {
		log.Fatalf("apiserver-standin: %v", err)
	}
	for {
		if _, err := os.Stat(start); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	for {
		var step struct {
			Apply  object `json:"apply"`
			Delete object `json:"delete"`
		}
		if err := dec.Decode(&step); err == io.EOF {
			break
		} else if err != nil {
			log.Fatalf("apiserver-standin: %s: %v", path, err)
		}
		s.mu.Lock()
		if step.Apply != nil {
			md := metadata(step.Apply)
			ns, _ := md["namespace"].(string)
			name, _ := md["name"].(string)
			kind := "MODIFIED"
			if s.secrets[ns] == nil {
				s.secrets[ns] = map[string]object{}
			}
			if _, ok := s.secrets[ns][name]; !ok {
				kind = "ADDED"
			}
			md["resourceVersion"] = s.nextVersion()
			delete(step.Apply, "kind")
			delete(step.Apply, "apiVersion")
			s.secrets[ns][name] = step.Apply
			s.record(kind, ns, step.Apply)
		} else if step.Delete != nil {
			ns, _ := step.Delete["namespace"].(string)
			name, _ := step.Delete["name"].(string)
			if o, ok := s.secrets[ns][name]; ok {
				delete(s.secrets[ns], name)
				last := object{}
				for k, v := range o {
					last[k] = v
				}
				md := object{}
				for k, v := range metadata(o) {
					md[k] = v
				}
				md["resourceVersion"] = s.nextVersion()
				last["metadata"] = md
				s.record("DELETED", ns, last)
			}
		}
		s.mu.Unlock()
		time.Sleep(interval)
	}
	if err := os.WriteFile(done, nil, 0o600); err != nil {
		log.Fatalf("apiserver-standin: %v", err)
	}
}

func (s *store) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.log != nil {
		s.mu.Lock()
		fmt.Fprintf(s.log, "%s %s\n", r.Method, r.URL.RequestURI())
		s.mu.Unlock()
	}
	path := strings.TrimSuffix(r.URL.Path, "/")
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	switch {
	case path == "/version":
		write(w, http.StatusOK, object{"major": "1", "minor": "32", "gitVersion": "v1.32.0-standin",
			"platform": "linux/amd64"})
	case path == "/api":
		write(w, http.StatusOK, object{"kind": "APIVersions", "versions": []string{"v1"},
			"serverAddressByClientCIDRs": []object{{"clientCIDR": "0.0.0.0/0", "serverAddress": r.Host}}})
	case path == "/apis":
		write(w, http.StatusOK, object{"kind": "APIGroupList", "apiVersion": "v1", "groups": []object{}})
	case path == "/openapi/v3":
		// Just enough OpenAPI for kubectl to see that the server validates
		// fields itself (the fieldValidation query parameter), so that
		// `kubectl replace` needs no schema.
		write(w, http.StatusOK, object{"paths": object{"api/v1": object{
			"serverRelativeURL": "/openapi/v3/api/v1?hash=standin"}}})
	case path == "/openapi/v3/api/v1":
		op := object{
			"x-kubernetes-group-version-kind": object{"group": "", "version": "v1", "kind": "Secret"},
			"parameters": []object{{"name": "fieldValidation", "in": "query",
				"schema": object{"type": "string"}}},
			"responses": object{}}
		write(w, http.StatusOK, object{"openapi": "3.0.0",
			"info":  object{"title": "apiserver-standin", "version": "v1.32.0"},
			"paths": object{"/api/v1/namespaces/{namespace}/secrets/{name}": object{"put": op, "patch": op}}})
	case len(parts) == 4 && parts[0] == "api" && parts[1] == "v1" && parts[2] == "namespaces":
		write(w, http.StatusOK, object{"kind": "Namespace", "apiVersion": "v1",
			"metadata": object{"name": parts[3]}, "status": object{"phase": "Active"}})
	case path == "/api/v1":
		write(w, http.StatusOK, object{"kind": "APIResourceList", "groupVersion": "v1",
			"resources": []object{{"name": "secrets", "singularName": "secret", "namespaced": true,
				"kind": "Secret", "verbs": []string{"get", "list", "update", "watch"}}}})
	case len(parts) >= 5 && len(parts) <= 6 && parts[0] == "api" && parts[1] == "v1" &&
		parts[2] == "namespaces" && parts[4] == "secrets":
		name := ""
		if len(parts) == 6 {
			name = parts[5]
		}
		s.serveSecrets(w, r, parts[3], name)
	default:
		status(w, http.StatusNotFound, "NotFound", "the stand-in does not serve "+path)
	}
}

func main() {
	var seeds, forbid multiFlag
	kubeconfig := flag.String("kubeconfig", "", "write a kubeconfig for the stand-in here (required)")
	logPath := flag.String("log", "", "append one line per request here")
	lifetime := flag.Duration("lifetime", 10*time.Minute, "exit after this long")
	flag.Var(&seeds, "seed", "Secrets to serve: a JSON Secret, List or stream (repeatable)")
	flag.Var(&forbid, "forbid", "answer 403 for this namespace (repeatable)")
	history := flag.Int("history", 1000, "changes kept for watches; older resourceVersions are 410 Gone")
	scriptPath := flag.String("script", "", "writes to replay (JSON Lines of apply/delete)")
	scriptStart := flag.String("script-start", "", "replay the script once this file exists")
	scriptDone := flag.String("script-done", "", "created once the script is replayed")
	interval := flag.Duration("script-interval", 20*time.Millisecond, "time between two scripted writes")
	flag.Parse()
	if *kubeconfig == "" {
		log.Fatal("apiserver-standin: -kubeconfig is required")
	}
	s := &store{secrets: map[string]map[string]object{}, forbid: map[string]bool{}, version: 1000,
		keep: *history}
	s.changed = sync.NewCond(&s.mu)
	for _, ns := range forbid {
		s.forbid[ns] = true
	}
	for _, path := range seeds {
		if err := s.seed(path); err != nil {
			log.Fatalf("apiserver-standin: %v", err)
		}
	}
	if *logPath != "" {
		f, err := os.OpenFile(*logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			log.Fatalf("apiserver-standin: %v", err)
		}
		s.log = f
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatalf("apiserver-standin: %v", err)
	}
	config := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: standin
  cluster:
    server: http://%s
contexts:
- name: standin
  context:
    cluster: standin
    user: standin
current-context: standin
users:
- name: standin
  user: {}
`, ln.Addr().String())
	tmp := *kubeconfig + ".tmp"
	if err := os.WriteFile(tmp, []byte(config), 0o600); err != nil {
		log.Fatalf("apiserver-standin: %v", err)
	}
	if err := os.Rename(tmp, *kubeconfig); err != nil {
		log.Fatalf("apiserver-standin: %v", err)
	}
	if *scriptPath != "" {
		go s.script(*scriptPath, *scriptStart, *scriptDone, *interval)
	}
	time.AfterFunc(*lifetime, func() { os.Exit(0) })
	log.Fatal(http.Serve(ln, s))
}
