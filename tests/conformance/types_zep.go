// ZEP-0026's package state types, as the proposal declares them: Zarf
// v0.84.0's DeployedPackage and DeployedComponent with the event fields
// appended. The package definition (`data`) is kept as raw bytes so that
// roundtrip compares it byte for byte; it is decoded into ZarfPackage
// separately.
package main

import (
	"encoding/json"
	"time"
)

type ZepDeployedPackage struct {
	Name                string                 `json:"name"`
	Digest              string                 `json:"digest"`
	Data                json.RawMessage        `json:"data"`
	CLIVersion          string                 `json:"cliVersion"`
	Generation          int                    `json:"generation"`
	DeployedComponents  []ZepDeployedComponent `json:"deployedComponents"`
	ConnectStrings      ConnectStrings         `json:"connectStrings,omitempty"`
	PackageConnectivity PackageConnectivity    `json:"packageConnectivity"`
	NamespaceOverride   string                 `json:"namespaceOverride,omitempty"`
	Events              []PackageEvent         `json:"events,omitempty"`
}

// ZepDeployedComponent's LastEvent is a struct, not a pointer: Go always
// writes it, as its zero value when the component has no event.
type ZepDeployedComponent struct {
	Name               string           `json:"name"`
	InstalledCharts    []InstalledChart `json:"installedCharts"`
	Status             ComponentStatus  `json:"status"`
	ObservedGeneration int              `json:"observedGeneration"`
	LastEvent          ComponentEvent   `json:"lastEvent,omitempty"`
}

type PackageEvent struct {
	Type         string    `json:"type"`
	Outcome      string    `json:"outcome"`
	Timestamp    time.Time `json:"timestamp"`
	Version      string    `json:"version,omitempty"`
	Flavor       string    `json:"flavor,omitempty"`
	Digest       string    `json:"digest,omitempty"`
	Source       string    `json:"source,omitempty"`
	ConfigDigest string    `json:"configDigest,omitempty"`
}

type ComponentEvent struct {
	Type      string    `json:"type"`
	Outcome   string    `json:"outcome"`
	Timestamp time.Time `json:"timestamp"`
}

// V084RawDeployedPackage is v0.84's DeployedPackage with the package
// definition held as raw bytes, for `roundtrip -types=v084` (a Secret in the
// shape Zarf v0.84 itself writes).
type V084RawDeployedPackage struct {
	Name                string              `json:"name"`
	Digest              string              `json:"digest"`
	Data                json.RawMessage     `json:"data"`
	CLIVersion          string              `json:"cliVersion"`
	Generation          int                 `json:"generation"`
	DeployedComponents  []DeployedComponent `json:"deployedComponents"`
	ConnectStrings      ConnectStrings      `json:"connectStrings,omitempty"`
	PackageConnectivity PackageConnectivity `json:"packageConnectivity"`
	NamespaceOverride   string              `json:"namespaceOverride,omitempty"`
}
