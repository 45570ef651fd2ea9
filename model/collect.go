package model

import "fmt"

// Collector is a Sink that keeps everything in memory. Tests of readers use
// it, and so can a program that wants the values without a store.
type Collector struct {
	Runs         []*Run
	Samples      map[int][]Sample
	MemoryPoints []MemoryPoint
	Calibrations []CalibrationPoint
}

func (c *Collector) Run(r *Run) error {
	for _, old := range c.Runs {
		if old.Index == r.Index {
			return fmt.Errorf("run index %d stored twice", r.Index)
		}
	}
	c.Runs = append(c.Runs, r)
	return nil
}

func (c *Collector) Sample(run int, s *Sample) error {
	if c.Samples == nil {
		c.Samples = make(map[int][]Sample)
	}
	c.Samples[run] = append(c.Samples[run], *s)
	return nil
}

func (c *Collector) Memory(m *MemoryPoint) error {
	c.MemoryPoints = append(c.MemoryPoints, *m)
	return nil
}

func (c *Collector) Calibration(p *CalibrationPoint) error {
	c.Calibrations = append(c.Calibrations, *p)
	return nil
}

// Rows counts the rows the collector holds, as the store would count them.
func (c *Collector) Rows() int64 {
	n := int64(len(c.Runs) + len(c.MemoryPoints) + len(c.Calibrations))
	for _, r := range c.Runs {
		n += int64(len(r.Percentiles))
	}
	for _, s := range c.Samples {
		n += int64(len(s))
	}
	return n
}
