package nepp

// The library's names of the inputs, as its errors (platform.FieldError,
// platform.LimitError) give them. A command line maps each to its own
// syntax (platform.Named's Format).
const (
	FieldAlgorithm    = "Config.Algorithm"
	FieldSpeeds       = "Config.Speeds"
	FieldShares       = "Config.Shares"
	FieldQueue        = "Config.Queue"
	FieldQMin         = "Config.QMin"
	FieldJobs         = "Config.Jobs"
	FieldWork         = "Config.Work"
	FieldUseful       = "Config.Useful"
	FieldHostOverhead = "Config.HostOverhead"
	FieldWorkDist     = "Config.WorkDist"
	FieldSetup        = "Config.Setup"
	FieldPerByte      = "Config.PerByte"
	FieldJobBytes     = "Config.JobBytes"
	FieldResultBytes  = "Config.ResultBytes"
	FieldCrashes      = "Config.Crashes"
	FieldSlows        = "Config.Slows"
	// FieldScanP is Scan's range of p (from, to), FieldSlowSpeed its
	// slow node's speed.
	FieldScanP     = "Scan.P"
	FieldSlowSpeed = "Scan.Slow"
	// FieldMaxEvents and FieldMaxBytes are the fields of
	// platform.Limits, FieldNoSim and FieldTrace those of
	// platform.RunOptions.
	FieldMaxEvents = "Limits.MaxEvents"
	FieldMaxBytes  = "Limits.MaxBytes"
	FieldNoSim     = "RunOptions.NoSim"
	FieldTrace     = "RunOptions.Trace"
	// FieldTopology is the topology of a platform.Platform (FromPlatform).
	FieldTopology = "Platform.Topology"
)

// pkg prefixes the package's errors.
const pkg = "nepp"
