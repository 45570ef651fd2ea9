package ingest

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"strconv"

	"github.com/wra-bench/wra/model"
)

// JMeter writes its JTL as XML with jmeter.save.saveservice.output_format=
// xml: a <testResults> element holding one element per sample,
// <httpSample> for the HTTP sampler and <sample> for the others, whose
// attributes are the saved fields:
//
//	t elapsed ms, lt latency, ct connect, it idle, ts start (epoch ms),
//	s success, lb label, rc response code, rm response message,
//	tn thread name, dt data type, by bytes, sby sent bytes,
//	ng group threads, na all threads, sc sample count, ec error count, hn host
//
// A sample's sub-results (embedded resources, redirects, the samples of a
// Transaction Controller that generates a parent sample) are elements
// nested in it; assertion results, response data and headers are other
// child elements.

func init() {
	register(&Format{Name: "jmeter-jtl-xml", Priority: 15, Detect: detectJTLXML, Read: readJTLXML, Bulk: true})
}

// detectJTLXML claims a document whose root element is <testResults>,
// after an optional XML declaration, comments and blank space.
func detectJTLXML(head []byte) bool {
	d := xml.NewDecoder(bytes.NewReader(head))
	for {
		tok, err := d.Token()
		if err != nil {
			return false
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			return tok.Name.Local == "testResults"
		case xml.CharData:
			if len(bytes.TrimSpace(tok)) > 0 {
				return false
			}
		case xml.ProcInst, xml.Comment, xml.Directive:
		default:
			return false
		}
	}
}

// readJTLXML reads a JMeter JTL in XML into the runs readJTLCSV makes of
// the same samples (jtlLabels): every <httpSample> and <sample> is a
// sample of its label; one nested in another is a run of its own kind,
// sample_kind=subsample, kept apart from the top-level samples of the
// same label, and a Transaction Controller's own sample is
// sample_kind=transaction, as in the CSV. A file that ends without
// </testResults> (JMeter writes it when the test ends) is read up to its
// last whole sample.
func readJTLXML(in *Input, sink model.Sink) error {
	d := xml.NewDecoder(in.R)
	ls := newJTLLabels(sink)
	depth, root := 0, false
	open := 0 // line of the innermost open sample
	for {
		// Where the token starts: JMeter writes blank space between
		// elements, which ends right before the next one.
		line, col := d.InputPos()
		tok, err := d.Token()
		if err == io.EOF {
			if depth > 0 {
				return Errorf(in.Name, line, 0, "JMeter JTL XML ends inside the sample that starts at line %d", open)
			}
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				if depth > 0 && se.Msg == "unexpected EOF" {
					return Errorf(in.Name, se.Line, 0, "JMeter JTL XML ends inside the sample that starts at line %d", open)
				}
				if root && depth == 0 && se.Msg == "unexpected EOF" {
					break // cut between two samples
				}
				return Errorf(in.Name, se.Line, 0, "JMeter JTL XML: %s", se.Msg)
			}
			return Errorf(in.Name, line, 0, "JMeter JTL XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if !root {
				if tok.Name.Local != "testResults" {
					return Errorf(in.Name, line, col, "JMeter JTL XML: expected the <testResults> element, found <%s>", tok.Name.Local)
				}
				root = true
				continue
			}
			if tok.Name.Local != "httpSample" && tok.Name.Local != "sample" {
				if err := d.Skip(); err != nil {
					if depth > 0 {
						return Errorf(in.Name, line, 0, "JMeter JTL XML ends inside the sample that starts at line %d", open)
					}
					return Errorf(in.Name, line, 0, "JMeter JTL XML: <%s> is not closed", tok.Name.Local)
				}
				continue
			}
			s, err := jtlXMLSample(in.Name, line, col, tok, depth > 0)
			if err != nil {
				return err
			}
			ls.codes = ls.codes || s.code != ""
			if err := ls.add(s); err != nil {
				return err
			}
			if depth == 0 {
				open = line
			}
			depth++
		case xml.EndElement:
			if tok.Name.Local == "testResults" && depth == 0 {
				if len(ls.order) == 0 {
					return Errorf(in.Name, line, 0, "JMeter JTL XML holds no sample")
				}
				return ls.store(sink)
			}
			if depth > 0 {
				depth--
			}
		}
	}
	if !root {
		return Errorf(in.Name, 1, 0, "JMeter JTL XML: expected the <testResults> element")
	}
	if len(ls.order) == 0 {
		return Errorf(in.Name, 1, 0, "JMeter JTL XML holds no sample")
	}
	return ls.store(sink)
}

// jtlXMLSample reads a sample element's attributes: t, ts and s are
// required, the others read where present.
func jtlXMLSample(name string, line, col int, el xml.StartElement, nested bool) (*jtlSample, error) {
	attr := map[string]string{}
	for _, a := range el.Attr {
		attr[a.Name.Local] = a.Value
	}
	bad := func(format string, args ...any) error {
		return Errorf(name, line, col, "<%s lb=%q>: "+format, append([]any{el.Name.Local, clipQuote(attr["lb"])}, args...)...)
	}
	s := &jtlSample{label: attr["lb"], line: line, bytes: -1, code: attr["rc"], thread: attr["tn"]}
	s.kind = jtlKind(attr["rm"], nested)
	for _, a := range []struct {
		key, what string
		dst       *int64
	}{{"ts", "epoch milliseconds", &s.ts}, {"t", "milliseconds", &s.ms}} {
		v, ok := attr[a.key]
		if !ok {
			return nil, bad("no %s attribute: expected %s", a.key, a.what)
		}
		n, msg := jtlWholeText(v, a.key == "ts", a.what)
		if msg != "" {
			return nil, bad("%s: %s", a.key, msg)
		}
		*a.dst = n
	}
	if s.ts > math.MaxInt64-s.ms {
		return nil, bad("t: %d ms after a start of %d overflows", s.ms, s.ts)
	}
	v, ok := attr["s"]
	if !ok {
		return nil, bad("no s attribute: expected the sample's success, true or false")
	}
	var err error
	if s.success, err = jtlBool(v); err != nil {
		return nil, bad("s: %v", err)
	}
	if v, ok := attr["by"]; ok {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, bad("by: expected a byte count, found %q", clipQuote(v))
		}
		s.bytes = n
	}
	if v, ok := attr["na"]; ok {
		s.threads, _ = strconv.ParseInt(v, 10, 64)
	}
	return s, nil
}
