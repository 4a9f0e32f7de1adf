package awscli

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"testing"
)

var update = flag.Bool("update", false, "write model.json again from the installed aws CLI's botocore")

// botocoreDump prints, as JSON, what botocore loads for S3: the service
// model and the paginators (with their sdk-extras merged), the CLI's name
// of each operation and of each member of a structure, and the CLI's
// commands (aws s3api, aws ec2, …).
const botocoreDump = `
import json, sys, botocore, botocore.session
from botocore import xform_name
s = botocore.session.get_session()
loader = s.get_component('data_loader')
service = loader.load_service_model('s3', 'service-2')
pages = loader.load_service_model('s3', 'paginators-1')
names = {op: xform_name(op, '-') for op in service['operations']}
for shape in service['shapes'].values():
    for member in shape.get('members', {}):
        names[member] = xform_name(member, '-')
from awscli.clidriver import create_clidriver
commands = list(create_clidriver()._get_command_table()) + ['help']
json.dump({'version': botocore.__version__, 'service': service, 'paginators': pages['pagination'], 'names': names, 'commands': commands}, sys.stdout)
`

// TestModelFromBotocore checks model.json against the botocore of the
// installed aws CLI, and with -update writes it.
func TestModelFromBotocore(t *testing.T) {
	python := botocorePython(t)
	out, err := exec.Command(python, "-c", botocoreDump).Output()
	if err != nil {
		t.Fatalf("reading botocore's S3 model: %v", err)
	}
	got, err := convertBotocore(out)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("model.json", got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(got, modelJSON) {
		t.Fatal("model.json differs from the installed botocore's S3 model: run go test -run TestModelFromBotocore -update")
	}
}

// botocorePython is the Python the aws CLI runs on: the interpreter named
// by the first line of the aws script, or python3.
func botocorePython(t *testing.T) string {
	aws := requireAWS(t)
	data, err := os.ReadFile(aws)
	if err == nil && bytes.HasPrefix(data, []byte("#!")) {
		line, _, _ := bytes.Cut(data[2:], []byte("\n"))
		if p := string(bytes.TrimSpace(line)); !bytes.Contains(line, []byte(" ")) && p != "" {
			if _, err := exec.Command(p, "-c", "import botocore").Output(); err == nil {
				return p
			}
		}
	}
	return "python3"
}

// convertBotocore writes botocore's dump in the shape of Model.
func convertBotocore(dump []byte) ([]byte, error) {
	var in struct {
		Version string `json:"version"`
		Service struct {
			Operations orderedMap[botoOperation] `json:"operations"`
			Shapes     map[string]botoShape      `json:"shapes"`
		} `json:"service"`
		Paginators map[string]botoPaginator `json:"paginators"`
		Names      map[string]string        `json:"names"`
		Commands   []string                 `json:"commands"`
	}
	if err := json.Unmarshal(dump, &in); err != nil {
		return nil, err
	}
	m := Model{Version: "botocore " + in.Version, Shapes: map[string]*Shape{}, Paginators: map[string]*Paginator{}, Commands: in.Commands}
	for _, kv := range in.Service.Operations {
		o := kv.value
		op := &Operation{Name: kv.key, CLIName: in.Names[kv.key], Method: o.HTTP.Method, URI: o.HTTP.RequestURI,
			Status: o.HTTP.ResponseCode, Input: o.Input.ref(""), Output: o.Output.ref(""), Deprecated: o.Deprecated}
		if c := o.HTTPChecksum; c != nil {
			op.Checksum = &Checksum{Required: c.RequestChecksumRequired, AlgorithmMember: c.RequestAlgorithmMember,
				ValidationMember: c.RequestValidationModeMember, ResponseAlgorithms: c.ResponseAlgorithms}
		}
		m.Operations = append(m.Operations, op)
	}
	for name, s := range in.Service.Shapes {
		shape := &Shape{Type: s.Type, Required: s.Required, Payload: s.Payload, Member: s.Member.ref(""),
			Key: s.Key.ref(""), Value: s.Value.ref(""), Enum: s.Enum, Min: s.Min, Max: s.Max,
			TimestampFormat: s.TimestampFormat, Exception: s.Exception, Document: s.Document, Traits: s.Traits}
		for _, kv := range s.Members {
			r := kv.value
			ref := r.ref(kv.key)
			ref.CLIName = in.Names[kv.key]
			shape.Members = append(shape.Members, ref)
		}
		m.Shapes[name] = shape
	}
	for name, p := range in.Paginators {
		m.Paginators[name] = &Paginator{InputTokens: p.InputToken, OutputTokens: p.OutputToken, MoreResults: p.MoreResults,
			LimitKey: p.LimitKey, ResultKeys: p.ResultKey, NonAggregateKeys: p.NonAggregateKeys}
	}
	out, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

type botoOperation struct {
	HTTP struct {
		Method       string `json:"method"`
		RequestURI   string `json:"requestUri"`
		ResponseCode int    `json:"responseCode"`
	} `json:"http"`
	Input        *botoRef `json:"input"`
	Output       *botoRef `json:"output"`
	Deprecated   bool     `json:"deprecated"`
	HTTPChecksum *struct {
		RequestChecksumRequired     bool     `json:"requestChecksumRequired"`
		RequestAlgorithmMember      string   `json:"requestAlgorithmMember"`
		RequestValidationModeMember string   `json:"requestValidationModeMember"`
		ResponseAlgorithms          []string `json:"responseAlgorithms"`
	} `json:"httpChecksum"`
}

type botoRef struct {
	Shape        string `json:"shape"`
	XMLNamespace *struct {
		URI string `json:"uri"`
	} `json:"xmlNamespace"`
	botoTraits
}

type botoTraits struct {
	Location         string `json:"location"`
	LocationName     string `json:"locationName"`
	Flattened        bool   `json:"flattened"`
	XMLAttribute     bool   `json:"xmlAttribute"`
	Streaming        bool   `json:"streaming"`
	IdempotencyToken bool   `json:"idempotencyToken"`
	JSONValue        bool   `json:"jsonvalue"`
}

func (r *botoRef) ref(name string) *Ref {
	if r == nil {
		return nil
	}
	out := &Ref{Name: name, ShapeName: r.Shape, Traits: r.traits()}
	if r.XMLNamespace != nil {
		out.XMLNamespace = r.XMLNamespace.URI
	}
	return out
}

func (t botoTraits) traits() Traits {
	return Traits{Location: t.Location, LocationName: t.LocationName, Flattened: t.Flattened, XMLAttribute: t.XMLAttribute,
		Streaming: t.Streaming, IdempotencyToken: t.IdempotencyToken, JSONValue: t.JSONValue}
}

type botoShape struct {
	Type            string                `json:"type"`
	Members         orderedMap[botoRef]   `json:"members"`
	Required        []string              `json:"required"`
	Payload         string                `json:"payload"`
	Member          *botoRef              `json:"member"`
	Key             *botoRef              `json:"key"`
	Value           *botoRef              `json:"value"`
	Enum            []string              `json:"enum"`
	Min             *float64              `json:"min"`
	Max             *float64              `json:"max"`
	TimestampFormat string                `json:"timestampFormat"`
	Exception       bool                  `json:"exception"`
	Document        bool                  `json:"document"`
	XMLNamespace    *struct{ URI string } `json:"xmlNamespace"`
	botoTraits
	Traits Traits `json:"-"`
}

func (s *botoShape) UnmarshalJSON(data []byte) error {
	type plain botoShape
	if err := json.Unmarshal(data, (*plain)(s)); err != nil {
		return err
	}
	s.Traits = s.botoTraits.traits()
	if s.XMLNamespace != nil {
		s.Traits.XMLNamespace = s.XMLNamespace.URI
	}
	return nil
}

type botoPaginator struct {
	InputToken       stringOrList `json:"input_token"`
	OutputToken      stringOrList `json:"output_token"`
	MoreResults      string       `json:"more_results"`
	LimitKey         string       `json:"limit_key"`
	ResultKey        stringOrList `json:"result_key"`
	NonAggregateKeys []string     `json:"non_aggregate_keys"`
}

// stringOrList is a paginator's token or key: one string or a list.
type stringOrList []string

func (s *stringOrList) UnmarshalJSON(data []byte) error {
	var one string
	if json.Unmarshal(data, &one) == nil {
		*s = []string{one}
		return nil
	}
	return json.Unmarshal(data, (*[]string)(s))
}

// orderedMap is a JSON object read with its members in order.
type orderedMap[V any] []struct {
	key   string
	value V
}

func (m *orderedMap[V]) UnmarshalJSON(data []byte) error {
	d := json.NewDecoder(bytes.NewReader(data))
	if _, err := d.Token(); err != nil {
		return err
	}
	for d.More() {
		k, err := d.Token()
		if err != nil {
			return err
		}
		var v V
		if err := d.Decode(&v); err != nil {
			return err
		}
		*m = append(*m, struct {
			key   string
			value V
		}{k.(string), v})
	}
	_, err := d.Token()
	return err
}

func TestModelLoads(t *testing.T) {
	m, err := s3Model()
	if err != nil {
		t.Fatal(err)
	}
	op := m.Operation("list-object-versions")
	if op == nil || op.Name != "ListObjectVersions" || op.Output.Shape.member("Versions") == nil {
		t.Fatalf("list-object-versions: %+v", op)
	}
	if p := m.Paginators["ListObjectVersions"]; p == nil || len(p.NonAggregateKeys) != 2 {
		t.Fatalf("paginator of ListObjectVersions: %+v", p)
	}
}
