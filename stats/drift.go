package stats

// DefaultDriftTolerance is the calibration drift beyond which a run is
// flagged: 5%. The drift itself is the store's (the table macro
// calibration_drift, at this tolerance by default).
const DefaultDriftTolerance = 0.05
