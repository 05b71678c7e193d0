// Byte-level JSON helpers for roundtrip: removing the object members a Go
// type does not declare while keeping every other byte of the text, and
// naming the JSON path at a byte offset. Both run on text that Go's decoder
// has already accepted, so they assume well-formed JSON.
package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
)

type scanner struct {
	b   []byte
	pos int
}

func (s *scanner) skipSpace() {
	for s.pos < len(s.b) {
		switch s.b[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// skipString moves past the string starting at pos (which is '"').
func (s *scanner) skipString() {
	s.pos++
	for s.pos < len(s.b) {
		switch s.b[s.pos] {
		case '\\':
			s.pos += 2
		case '"':
			s.pos++
			return
		default:
			s.pos++
		}
	}
}

// skipValue moves past the value starting at pos (after white space).
func (s *scanner) skipValue() {
	s.skipSpace()
	if s.pos >= len(s.b) {
		return
	}
	switch s.b[s.pos] {
	case '"':
		s.skipString()
	case '{', '[':
		depth := 0
		for s.pos < len(s.b) {
			c := s.b[s.pos]
			switch c {
			case '"':
				s.skipString()
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
			s.pos++
			if depth == 0 {
				return
			}
		}
	default:
		for s.pos < len(s.b) && strings.IndexByte(",]} \t\r\n", s.b[s.pos]) < 0 {
			s.pos++
		}
	}
}

// readKey reads a member's key and the colon after it; returns the key.
func (s *scanner) readKey() string {
	s.skipSpace()
	start := s.pos
	s.skipString()
	var key string
	_ = json.Unmarshal(s.b[start:s.pos], &key)
	s.skipSpace()
	s.pos++ // ':'
	return key
}

// member is one object member: the bytes from its key to the end of its value.
type member struct{ keyStart, valueStart, end int }

// forEachMember walks the object at pos; fn gets each member's key and span
// with the scanner placed at the value's start, and must leave it at the
// value's end. Returns the object's '{' and '}' offsets.
func (s *scanner) forEachMember(fn func(key string, m *member)) (open, close int) {
	s.skipSpace()
	open = s.pos
	s.pos++
	for {
		s.skipSpace()
		if s.b[s.pos] == '}' {
			close = s.pos
			s.pos++
			return
		}
		if s.b[s.pos] == ',' {
			s.pos++
			s.skipSpace()
		}
		m := member{keyStart: s.pos}
		key := s.readKey()
		s.skipSpace()
		m.valueStart = s.pos
		fn(key, &m)
		m.end = s.pos
	}
}

// forEachElement walks the array at pos; fn gets each element's index and
// the offset where the separator before it began, with the scanner placed at
// the element, and must leave it at the element's end. Returns the offsets
// where the white space before ']' begins and of ']' itself.
func (s *scanner) forEachElement(fn func(i, sepStart int)) (tail, close int) {
	s.skipSpace()
	s.pos++ // '['
	for i := 0; ; i++ {
		sepStart := s.pos
		s.skipSpace()
		if s.b[s.pos] == ']' {
			s.pos++
			return sepStart, s.pos - 1
		}
		if s.b[s.pos] == ',' {
			s.pos++
			s.skipSpace()
		}
		fn(i, sepStart)
	}
}

var (
	rawMessageType = reflect.TypeOf(json.RawMessage{})
	timeType       = reflect.TypeOf(time.Time{})
)

// fieldType returns the type of the field that Go's decoder fills for `key`
// in struct t (exact JSON name first, then a case-insensitive match, with
// embedded structs of empty JSON name flattened), or nil if none.
func fieldType(t reflect.Type, key string) reflect.Type {
	var folded reflect.Type
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" {
			if ft := fieldType(f.Type, key); ft != nil {
				return ft
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		if name == key {
			return f.Type
		}
		if folded == nil && strings.EqualFold(name, key) {
			folded = f.Type
		}
	}
	return folded
}

// stripUndeclared copies the value at s.pos to out, leaving out every object
// member that type t does not declare at its level. Removed members are
// counted in removed by path (array indexes written "[]").
func stripUndeclared(s *scanner, t reflect.Type, path string, out *[]byte, removed map[string]int) {
	s.skipSpace()
	start := s.pos
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	isNull := s.pos < len(s.b) && s.b[s.pos] == 'n'
	if t == nil || isNull || t == rawMessageType || t == timeType {
		s.skipValue()
		*out = append(*out, s.b[start:s.pos]...)
		return
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		type entry struct {
			m    member
			keep bool
			body []byte
		}
		var all []*entry
		open, close := s.forEachMember(func(key string, m *member) {
			e := &entry{m: *m}
			all = append(all, e)
			var ft reflect.Type
			if t.Kind() == reflect.Map {
				ft = t.Elem()
			} else {
				ft = fieldType(t, key)
			}
			if t.Kind() == reflect.Struct && ft == nil {
				s.skipValue()
				removed[joinPath(path, key)]++
			} else {
				e.keep = true
				stripUndeclared(s, ft, joinPath(path, key), &e.body, removed)
			}
			e.m.end = s.pos
		})
		// A kept member is written with the separator that preceded it in
		// the text, except the first one written, which gets the white
		// space after '{'.
		*out = append(*out, '{')
		prevEnd, written := open+1, 0
		for _, e := range all {
			if e.keep {
				if written == 0 {
					lead := scanner{b: s.b, pos: open + 1}
					lead.skipSpace()
					*out = append(*out, s.b[open+1:lead.pos]...)
				} else {
					*out = append(*out, s.b[prevEnd:e.m.keyStart]...)
				}
				*out = append(*out, s.b[e.m.keyStart:e.m.valueStart]...)
				*out = append(*out, e.body...)
				written++
			}
			prevEnd = e.m.end
		}
		*out = append(*out, s.b[prevEnd:close+1]...)
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 { // []byte is a base64 string
			s.skipValue()
			*out = append(*out, s.b[start:s.pos]...)
			return
		}
		*out = append(*out, '[')
		tail, close := s.forEachElement(func(_, sepStart int) {
			*out = append(*out, s.b[sepStart:s.pos]...)
			stripUndeclared(s, t.Elem(), path+"[]", out, removed)
		})
		*out = append(*out, s.b[tail:close+1]...)
	default:
		s.skipValue()
		*out = append(*out, s.b[start:s.pos]...)
	}
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// pathAt names the JSON path of the innermost value around byte offset off.
func pathAt(b []byte, off int) string {
	s := &scanner{b: b}
	return pathIn(s, off, "")
}

func pathIn(s *scanner, off int, path string) string {
	s.skipSpace()
	if s.pos >= len(s.b) {
		return path
	}
	switch s.b[s.pos] {
	case '{':
		found := ""
		s.forEachMember(func(key string, m *member) {
			if found != "" {
				s.skipValue()
				return
			}
			inner := scanner{b: s.b, pos: s.pos}
			inner.skipValue()
			if off < s.pos {
				found = joinPath(path, key)
			} else if off < inner.pos {
				found = pathIn(&scanner{b: s.b, pos: s.pos}, off, joinPath(path, key))
			}
			s.pos = inner.pos
		})
		if found != "" {
			return found
		}
		return path
	case '[':
		found := ""
		s.forEachElement(func(i, _ int) {
			start := s.pos
			s.skipValue()
			if found == "" && off < s.pos {
				found = pathIn(&scanner{b: s.b, pos: start}, off, fmt.Sprintf("%s[%d]", path, i))
			}
		})
		if found != "" {
			return found
		}
	}
	return path
}

// countKeys counts every object member of the value at s.pos by path (array
// indexes written "[]").
func countKeys(s *scanner, path string, counts map[string]int) {
	s.skipSpace()
	if s.pos >= len(s.b) {
		return
	}
	switch s.b[s.pos] {
	case '{':
		s.forEachMember(func(key string, m *member) {
			counts[joinPath(path, key)]++
			countKeys(s, joinPath(path, key), counts)
		})
	case '[':
		s.forEachElement(func(int, int) { countKeys(s, path+"[]", counts) })
	default:
		s.skipValue()
	}
}

// missingKeys names the members (by path, with how many) that theirs has
// more often than ours, outside the package definition at `data`.
func missingKeys(ours, theirs []byte) string {
	have, want := map[string]int{}, map[string]int{}
	countKeys(&scanner{b: ours}, "", have)
	countKeys(&scanner{b: theirs}, "", want)
	missing := map[string]int{}
	for k, n := range want {
		if n > have[k] && !strings.HasPrefix(k, "data.") {
			missing[k] = n - have[k]
		}
	}
	for k := range missing {
		for parent := k; strings.Contains(parent, "."); {
			parent = strings.TrimRight(parent[:strings.LastIndex(parent, ".")], "[]")
			if _, ok := missing[parent]; ok {
				delete(missing, k) // named by its missing parent
				break
			}
		}
	}
	return describeRemoved(missing)
}
