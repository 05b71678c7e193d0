// Zarf v0.84.0's wire types for a package Secret's payload, written from the
// field table in tests/data/zarf/types-v0.84.0.json (declaration order, JSON
// names, omitempty and Go types as listed there). Zarf's packages v1alpha1
// and state share one Go package here; no names collide.
//
// check-types compares these declarations with that table by reflection, and
// check-vectors compares their json.Marshal output with Go's recorded bytes.
package main

// ---- package state ----

type ComponentStatus string
type ChartStatus string
type PackageConnectivity string
type ConnectStrings map[string]ConnectString

type ConnectString struct {
	Description string `json:"description"`
	URL         string `json:"url"`
}

type InstalledChart struct {
	Namespace      string         `json:"namespace"`
	ChartName      string         `json:"chartName"`
	ConnectStrings ConnectStrings `json:"connectStrings,omitempty"`
	Status         ChartStatus    `json:"status"`
}

type DeployedComponent struct {
	Name               string           `json:"name"`
	InstalledCharts    []InstalledChart `json:"installedCharts"`
	Status             ComponentStatus  `json:"status"`
	ObservedGeneration int              `json:"observedGeneration"`
}

type DeployedPackage struct {
	Name                string              `json:"name"`
	Digest              string              `json:"digest"`
	Data                ZarfPackage         `json:"data"`
	CLIVersion          string              `json:"cliVersion"`
	Generation          int                 `json:"generation"`
	DeployedComponents  []DeployedComponent `json:"deployedComponents"`
	ConnectStrings      ConnectStrings      `json:"connectStrings,omitempty"`
	PackageConnectivity PackageConnectivity `json:"packageConnectivity"`
	NamespaceOverride   string              `json:"namespaceOverride,omitempty"`
}

// ---- package v1alpha1 ----

type ZarfPackageKind string
type VariableType string
type SetValueType string
type StateAccessKey string

type ZarfPackage struct {
	APIVersion    string                `json:"apiVersion,omitempty"`
	Kind          ZarfPackageKind       `json:"kind"`
	Metadata      ZarfMetadata          `json:"metadata,omitempty"`
	Build         ZarfBuildData         `json:"build,omitempty"`
	Components    []ZarfComponent       `json:"components"`
	Constants     []Constant            `json:"constants,omitempty"`
	Variables     []InteractiveVariable `json:"variables,omitempty"`
	Values        ZarfValues            `json:"values,omitempty"`
	Documentation map[string]string     `json:"documentation,omitempty"`
}

type ZarfMetadata struct {
	Name                   string            `json:"name"`
	Description            string            `json:"description,omitempty"`
	Version                string            `json:"version,omitempty"`
	URL                    string            `json:"url,omitempty"`
	Image                  string            `json:"image,omitempty"`
	Uncompressed           bool              `json:"uncompressed,omitempty"`
	Architecture           string            `json:"architecture,omitempty"`
	YOLO                   bool              `json:"yolo,omitempty"`
	Authors                string            `json:"authors,omitempty"`
	Documentation          string            `json:"documentation,omitempty"`
	Source                 string            `json:"source,omitempty"`
	Vendor                 string            `json:"vendor,omitempty"`
	AggregateChecksum      string            `json:"aggregateChecksum,omitempty"`
	Annotations            map[string]string `json:"annotations,omitempty"`
	AllowNamespaceOverride *bool             `json:"allowNamespaceOverride,omitempty"`
}

type ZarfBuildData struct {
	Terminal                   string               `json:"terminal,omitempty"`
	User                       string               `json:"user,omitempty"`
	Architecture               string               `json:"architecture"`
	Timestamp                  string               `json:"timestamp"`
	Version                    string               `json:"version"`
	Migrations                 []string             `json:"migrations,omitempty"`
	RegistryOverrides          map[string]string    `json:"registryOverrides,omitempty"`
	Differential               bool                 `json:"differential,omitempty"`
	DifferentialPackageVersion string               `json:"differentialPackageVersion,omitempty"`
	DifferentialMissing        []string             `json:"differentialMissing,omitempty"`
	Flavor                     string               `json:"flavor,omitempty"`
	Signed                     *bool                `json:"signed,omitempty"`
	VersionRequirements        []VersionRequirement `json:"versionRequirements,omitempty"`
	ProvenanceFiles            []string             `json:"provenanceFiles,omitempty"`
}

type VersionRequirement struct {
	Version string `json:"version"`
	Reason  string `json:"reason,omitempty"`
}

type ZarfValues struct {
	Files  []string `json:"files,omitempty"`
	Schema string   `json:"schema,omitempty"`
}

type Constant struct {
	Name        string `json:"name"`
	Value       string `json:"value"`
	Description string `json:"description,omitempty"`
	AutoIndent  bool   `json:"autoIndent,omitempty"`
	Pattern     string `json:"pattern,omitempty"`
}

type Variable struct {
	Name       string       `json:"name"`
	Sensitive  bool         `json:"sensitive,omitempty"`
	AutoIndent bool         `json:"autoIndent,omitempty"`
	Pattern    string       `json:"pattern,omitempty"`
	Type       VariableType `json:"type,omitempty"`
}

// InteractiveVariable embeds Variable with an empty JSON name, so its fields
// are written in its place.
type InteractiveVariable struct {
	Variable    `json:",inline"`
	Description string `json:"description,omitempty"`
	Default     string `json:"default,omitempty"`
	Prompt      bool   `json:"prompt,omitempty"`
}

type SetVariable struct {
	Variable `json:",inline"`
	Value    string `json:"value"`
}

type ZarfComponent struct {
	Name              string                          `json:"name"`
	Description       string                          `json:"description,omitempty"`
	Default           bool                            `json:"default,omitempty"`
	Required          *bool                           `json:"required,omitempty"`
	Only              ZarfComponentOnlyTarget         `json:"only,omitempty"`
	DeprecatedGroup   string                          `json:"group,omitempty"`
	Import            ZarfComponentImport             `json:"import,omitempty"`
	Manifests         []ZarfManifest                  `json:"manifests,omitempty"`
	Charts            []ZarfChart                     `json:"charts,omitempty"`
	DataInjections    []ZarfDataInjection             `json:"dataInjections,omitempty"`
	Files             []ZarfFile                      `json:"files,omitempty"`
	Images            []string                        `json:"images,omitempty"`
	ImageArchives     []ImageArchive                  `json:"imageArchives,omitempty"`
	Repos             []string                        `json:"repos,omitempty"`
	DeprecatedScripts DeprecatedZarfComponentScripts  `json:"scripts,omitempty"`
	Actions           ZarfComponentActions            `json:"actions,omitempty"`
	HealthChecks      []NamespacedObjectKindReference `json:"healthChecks,omitempty"`
	StateAccess       []StateAccessKey                `json:"stateAccess,omitempty"`
}

type ZarfComponentOnlyTarget struct {
	LocalOS string                   `json:"localOS,omitempty"`
	Cluster ZarfComponentOnlyCluster `json:"cluster,omitempty"`
	Flavor  string                   `json:"flavor,omitempty"`
}

type ZarfComponentOnlyCluster struct {
	Architecture string   `json:"architecture,omitempty"`
	Distros      []string `json:"distros,omitempty"`
}

type ZarfComponentImport struct {
	Name string `json:"name,omitempty"`
	Path string `json:"path,omitempty"`
	URL  string `json:"url,omitempty"`
}

type ZarfManifest struct {
	Name                       string   `json:"name"`
	Namespace                  string   `json:"namespace,omitempty"`
	Files                      []string `json:"files,omitempty"`
	KustomizeAllowAnyDirectory bool     `json:"kustomizeAllowAnyDirectory,omitempty"`
	Kustomizations             []string `json:"kustomizations,omitempty"`
	EnableKustomizePlugins     bool     `json:"enableKustomizePlugins,omitempty"`
	NoWait                     bool     `json:"noWait,omitempty"`
	ServerSideApply            string   `json:"serverSideApply,omitempty"`
	Template                   *bool    `json:"template,omitempty"`
}

type ZarfChart struct {
	Name                 string              `json:"name"`
	Version              string              `json:"version,omitempty"`
	URL                  string              `json:"url,omitempty"`
	RepoName             string              `json:"repoName,omitempty"`
	GitPath              string              `json:"gitPath,omitempty"`
	LocalPath            string              `json:"localPath,omitempty"`
	Namespace            string              `json:"namespace,omitempty"`
	ReleaseName          string              `json:"releaseName,omitempty"`
	NoWait               bool                `json:"noWait,omitempty"`
	ValuesFiles          []string            `json:"valuesFiles,omitempty"`
	TemplatedValuesFiles []string            `json:"templatedValuesFiles,omitempty"`
	Variables            []ZarfChartVariable `json:"variables,omitempty"`
	Values               []ZarfChartValue    `json:"values,omitempty"`
	SchemaValidation     *bool               `json:"schemaValidation,omitempty"`
	ServerSideApply      string              `json:"serverSideApply,omitempty"`
}

type ZarfChartVariable struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Path        string `json:"path"`
}

type ZarfChartValue struct {
	SourcePath   string   `json:"sourcePath"`
	TargetPath   string   `json:"targetPath"`
	ExcludePaths []string `json:"excludePaths,omitempty"`
}

type ZarfDataInjection struct {
	Source   string              `json:"source"`
	Target   ZarfContainerTarget `json:"target"`
	Compress bool                `json:"compress,omitempty"`
}

type ZarfContainerTarget struct {
	Namespace string `json:"namespace"`
	Selector  string `json:"selector"`
	Container string `json:"container"`
	Path      string `json:"path"`
}

type ZarfFile struct {
	Source      string   `json:"source"`
	Shasum      string   `json:"shasum,omitempty"`
	Target      string   `json:"target"`
	Executable  bool     `json:"executable,omitempty"`
	Symlinks    []string `json:"symlinks,omitempty"`
	ExtractPath string   `json:"extractPath,omitempty"`
	Template    *bool    `json:"template,omitempty"`
}

type ImageArchive struct {
	Path   string   `json:"path"`
	Images []string `json:"images"`
}

type DeprecatedZarfComponentScripts struct {
	ShowOutput     bool     `json:"showOutput,omitempty"`
	TimeoutSeconds int      `json:"timeoutSeconds,omitempty"`
	Retry          bool     `json:"retry,omitempty"`
	Prepare        []string `json:"prepare,omitempty"`
	Before         []string `json:"before,omitempty"`
	After          []string `json:"after,omitempty"`
}

type ZarfComponentActions struct {
	OnCreate ZarfComponentActionSet `json:"onCreate,omitempty"`
	OnDeploy ZarfComponentActionSet `json:"onDeploy,omitempty"`
	OnRemove ZarfComponentActionSet `json:"onRemove,omitempty"`
}

type ZarfComponentActionSet struct {
	Defaults  ZarfComponentActionDefaults `json:"defaults,omitempty"`
	Before    []ZarfComponentAction       `json:"before,omitempty"`
	After     []ZarfComponentAction       `json:"after,omitempty"`
	OnSuccess []ZarfComponentAction       `json:"onSuccess,omitempty"`
	OnFailure []ZarfComponentAction       `json:"onFailure,omitempty"`
}

type ZarfComponentActionDefaults struct {
	Mute            bool     `json:"mute,omitempty"`
	MaxTotalSeconds int      `json:"maxTotalSeconds,omitempty"`
	MaxRetries      int      `json:"maxRetries,omitempty"`
	Dir             string   `json:"dir,omitempty"`
	Env             []string `json:"env,omitempty"`
	Shell           Shell    `json:"shell,omitempty"`
}

type ZarfComponentAction struct {
	Mute                  *bool                    `json:"mute,omitempty"`
	MaxTotalSeconds       *int                     `json:"maxTotalSeconds,omitempty"`
	MaxRetries            *int                     `json:"maxRetries,omitempty"`
	Dir                   *string                  `json:"dir,omitempty"`
	Env                   []string                 `json:"env,omitempty"`
	Cmd                   string                   `json:"cmd,omitempty"`
	Shell                 *Shell                   `json:"shell,omitempty"`
	DeprecatedSetVariable string                   `json:"setVariable,omitempty"`
	SetVariables          []Variable               `json:"setVariables,omitempty"`
	SetValues             []SetValue               `json:"setValues,omitempty"`
	Description           string                   `json:"description,omitempty"`
	Wait                  *ZarfComponentActionWait `json:"wait,omitempty"`
	Template              *bool                    `json:"template,omitempty"`
}

type Shell struct {
	Windows string `json:"windows,omitempty"`
	Linux   string `json:"linux,omitempty"`
	Darwin  string `json:"darwin,omitempty"`
}

type SetValue struct {
	Key   string       `json:"key,omitempty"`
	Value any          `json:"value,omitempty"`
	Type  SetValueType `json:"type,omitempty"`
}

type ZarfComponentActionWait struct {
	Cluster *ZarfComponentActionWaitCluster `json:"cluster,omitempty"`
	Network *ZarfComponentActionWaitNetwork `json:"network,omitempty"`
}

type ZarfComponentActionWaitCluster struct {
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
	Condition string `json:"condition,omitempty"`
}

type ZarfComponentActionWaitNetwork struct {
	Protocol string `json:"protocol"`
	Address  string `json:"address"`
	Code     int    `json:"code,omitempty"`
}

type NamespacedObjectKindReference struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace"`
	Name       string `json:"name"`
}
