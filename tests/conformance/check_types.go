// check-types: compares the Go types of this program with Zarf v0.84.0's
// field table (tests/data/zarf/types-v0.84.0.json) by reflection, for every
// type reachable from state.DeployedPackage, and checks that the ZEP-0026
// types begin with the v0.84 fields.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
)

type tableField struct {
	GoName    string `json:"goName"`
	JSON      string `json:"json"`
	OmitEmpty bool   `json:"omitempty"`
	Embedded  bool   `json:"embedded"`
	Type      string `json:"type"`
}

type tableType struct {
	Name       string       `json:"name"`
	Package    string       `json:"package"`
	Kind       string       `json:"kind"`
	Underlying string       `json:"underlying"`
	Fields     []tableField `json:"fields"`
}

// ourTypes maps the table's type names to this program's declarations.
var ourTypes = map[string]reflect.Type{}

func init() {
	for _, v := range []any{
		DeployedPackage{}, DeployedComponent{}, InstalledChart{}, ConnectString{},
		ConnectStrings{}, ComponentStatus(""), ChartStatus(""), PackageConnectivity(""),
		ZarfPackage{}, ZarfPackageKind(""), ZarfMetadata{}, ZarfBuildData{}, VersionRequirement{},
		ZarfValues{}, Constant{}, Variable{}, VariableType(""), InteractiveVariable{}, SetVariable{},
		ZarfComponent{}, ZarfComponentOnlyTarget{}, ZarfComponentOnlyCluster{},
		ZarfComponentImport{}, ZarfManifest{}, ZarfChart{}, ZarfChartVariable{},
		ZarfChartValue{}, ZarfDataInjection{}, ZarfContainerTarget{}, ZarfFile{}, ImageArchive{},
		DeprecatedZarfComponentScripts{}, ZarfComponentActions{}, ZarfComponentActionSet{},
		ZarfComponentActionDefaults{}, ZarfComponentAction{}, Shell{}, SetValue{},
		SetValueType(""), ZarfComponentActionWait{}, ZarfComponentActionWaitCluster{},
		ZarfComponentActionWaitNetwork{}, NamespacedObjectKindReference{}, StateAccessKey(""),
	} {
		t := reflect.TypeOf(v)
		ourTypes[t.Name()] = t
	}
}

// typeString spells t as the table does, without package qualifiers.
func typeString(t reflect.Type, named bool) string {
	if named && t.Name() != "" {
		return t.Name()
	}
	switch t.Kind() {
	case reflect.Slice:
		return "[]" + typeString(t.Elem(), true)
	case reflect.Pointer:
		return "*" + typeString(t.Elem(), true)
	case reflect.Map:
		return "map[" + typeString(t.Key(), true) + "]" + typeString(t.Elem(), true)
	case reflect.Interface:
		if t.NumMethod() == 0 {
			return "any"
		}
	case reflect.Struct:
		return t.String()
	}
	return t.Kind().String()
}

// unqualify drops package qualifiers: "[]v1alpha1.ZarfComponent" -> "[]ZarfComponent".
func unqualify(s string) string {
	for _, p := range []string{"v1alpha1.", "state."} {
		s = strings.ReplaceAll(s, p, "")
	}
	return s
}

func runCheckTypes(args []string) (bool, error) {
	if len(args) != 1 {
		return false, errors.New("check-types: want TYPES.json")
	}
	text, err := os.ReadFile(args[0])
	if err != nil {
		return false, err
	}
	var table []tableType
	if err := json.Unmarshal(text, &table); err != nil {
		return false, fmt.Errorf("%s: %v", args[0], err)
	}
	byName := map[string]tableType{}
	for _, t := range table {
		if t.Package == "state" || t.Package == "v1alpha1" {
			byName[t.Name] = t
		}
	}
	var problems []string
	seen := map[string]bool{}
	var visit func(name string)
	visit = func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		want, inTable := byName[name]
		ours, declared := ourTypes[name]
		if !inTable {
			return // a builtin
		}
		if !declared {
			problems = append(problems, name+": in the table, not declared here")
			return
		}
		if want.Kind == "named" {
			if got := typeString(ours, false); got != unqualify(want.Underlying) {
				problems = append(problems, fmt.Sprintf("%s: underlying %s, table says %s", name, got, want.Underlying))
			}
			visitTypeNames(want.Underlying, visit)
			return
		}
		if ours.NumField() != len(want.Fields) {
			problems = append(problems, fmt.Sprintf("%s: %d fields, table says %d", name, ours.NumField(), len(want.Fields)))
		}
		for i := 0; i < ours.NumField() && i < len(want.Fields); i++ {
			f, w := ours.Field(i), want.Fields[i]
			jsonName, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			omit := strings.Contains(","+opts+",", ",omitempty,")
			if w.Embedded && f.Anonymous && jsonName == "" {
				jsonName = w.JSON
			}
			got := fmt.Sprintf("%s %s json:%q omitempty:%v embedded:%v", f.Name, typeString(f.Type, true), jsonName, omit, f.Anonymous)
			exp := fmt.Sprintf("%s %s json:%q omitempty:%v embedded:%v", w.GoName, unqualify(w.Type), w.JSON, w.OmitEmpty, w.Embedded)
			if got != exp {
				problems = append(problems, fmt.Sprintf("%s field %d: have %s; table says %s", name, i, got, exp))
			}
			visitTypeNames(w.Type, visit)
		}
	}
	visit("DeployedPackage")
	problems = append(problems, checkZepPrefix()...)
	for _, p := range problems {
		fmt.Println("FAIL", p)
	}
	fmt.Printf("check-types: %d types compared with %s: %s\n", len(seen), args[0],
		map[bool]string{true: "ok", false: "FAILED"}[len(problems) == 0])
	return len(problems) == 0, nil
}

// visitTypeNames calls visit for each identifier in a Go type expression.
func visitTypeNames(expr string, visit func(string)) {
	for _, word := range strings.FieldsFunc(unqualify(expr), func(r rune) bool {
		return !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) {
		visit(word)
	}
}

// checkZepPrefix: the ZEP types are the v0.84 ones plus trailing fields
// (the package definition held as raw bytes).
func checkZepPrefix() []string {
	var problems []string
	pairs := [][2]reflect.Type{
		{reflect.TypeOf(DeployedPackage{}), reflect.TypeOf(ZepDeployedPackage{})},
		{reflect.TypeOf(DeployedComponent{}), reflect.TypeOf(ZepDeployedComponent{})},
		{reflect.TypeOf(DeployedPackage{}), reflect.TypeOf(V084RawDeployedPackage{})},
	}
	for _, p := range pairs {
		for i := 0; i < p[0].NumField(); i++ {
			a, b := p[0].Field(i), p[1].Field(i)
			sameType := a.Type == b.Type || (a.Name == "Data" && b.Type == rawMessageType) ||
				(a.Name == "DeployedComponents" && b.Type.Elem() == reflect.TypeOf(ZepDeployedComponent{}))
			if i >= p[1].NumField() {
				problems = append(problems, fmt.Sprintf("%s lacks field %s", p[1].Name(), a.Name))
				continue
			}
			if a.Name != b.Name || a.Tag != b.Tag || !sameType {
				problems = append(problems, fmt.Sprintf("%s field %d (%s) differs from %s's", p[1].Name(), i, b.Name, p[0].Name()))
			}
		}
	}
	return problems
}
