package awscli

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"
)

// The S3 API as the aws CLI knows it: every operation with its HTTP
// binding, the shapes of its input and output, and the paginators. It is
// botocore's service model (botocore/data/s3/2006-03-01, Apache License
// 2.0), with the documentation left out and each structure's members kept
// in their order, which is the order in which the CLI prints them.
// TestModelFromBotocore -update writes it again from the installed CLI.
//
//go:embed model.json
var modelJSON []byte

// Model is the service model of S3.
type Model struct {
	Version    string                `json:"version"`
	Operations []*Operation          `json:"operations"`
	Shapes     map[string]*Shape     `json:"shapes"`
	Paginators map[string]*Paginator `json:"paginators"`
	// Commands are the aws CLI's commands, in the order it lists them.
	Commands []string `json:"commands"`

	byCLIName map[string]*Operation
}

// Operation is one S3 operation.
type Operation struct {
	Name       string    `json:"name"`
	CLIName    string    `json:"cliName"`
	Method     string    `json:"method"`
	URI        string    `json:"uri"`
	Status     int       `json:"status,omitempty"`
	Input      *Ref      `json:"input,omitempty"`
	Output     *Ref      `json:"output,omitempty"`
	Checksum   *Checksum `json:"checksum,omitempty"`
	Deprecated bool      `json:"deprecated,omitempty"`
}

// Checksum is an operation's flexible-checksum traits.
type Checksum struct {
	Required           bool     `json:"required,omitempty"`
	AlgorithmMember    string   `json:"algorithmMember,omitempty"`
	ValidationMember   string   `json:"validationMember,omitempty"`
	ResponseAlgorithms []string `json:"responseAlgorithms,omitempty"`
}

// Shape is a type of the model.
type Shape struct {
	Name            string   `json:"-"`
	Type            string   `json:"type"`
	Members         []*Ref   `json:"members,omitempty"`
	Required        []string `json:"required,omitempty"`
	Payload         string   `json:"payload,omitempty"`
	Member          *Ref     `json:"member,omitempty"`
	Key             *Ref     `json:"key,omitempty"`
	Value           *Ref     `json:"value,omitempty"`
	Enum            []string `json:"enum,omitempty"`
	Min             *float64 `json:"min,omitempty"`
	Max             *float64 `json:"max,omitempty"`
	TimestampFormat string   `json:"timestampFormat,omitempty"`
	Exception       bool     `json:"exception,omitempty"`
	Document        bool     `json:"document,omitempty"`
	Traits
}

// Traits are how a value is serialised. A reference to a shape may set
// them, and then they win over the shape's own.
type Traits struct {
	Location         string `json:"location,omitempty"`
	LocationName     string `json:"locationName,omitempty"`
	Flattened        bool   `json:"flattened,omitempty"`
	XMLNamespace     string `json:"xmlNamespace,omitempty"`
	XMLAttribute     bool   `json:"xmlAttribute,omitempty"`
	Streaming        bool   `json:"streaming,omitempty"`
	IdempotencyToken bool   `json:"idempotencyToken,omitempty"`
	JSONValue        bool   `json:"jsonvalue,omitempty"`
}

// Ref is a reference to a shape: a structure's member (with its name), a
// list's member, a map's key or value, an operation's input or output.
type Ref struct {
	Name      string `json:"name,omitempty"`
	CLIName   string `json:"cliName,omitempty"` // a member's option: --version-id
	ShapeName string `json:"shape"`
	Traits
	Shape *Shape `json:"-"`

	merged Traits // traits(), once the model is linked
}

// Paginator is how the CLI pages through an operation's results.
type Paginator struct {
	InputTokens      []string `json:"inputToken"`
	OutputTokens     []string `json:"outputToken"`
	MoreResults      string   `json:"moreResults,omitempty"`
	LimitKey         string   `json:"limitKey,omitempty"`
	ResultKeys       []string `json:"resultKey"`
	NonAggregateKeys []string `json:"nonAggregateKeys,omitempty"`
}

// traits are r's traits over its shape's.
func (r *Ref) traits() Traits { return r.merged }

// merge works out r's traits over its shape's.
func (r *Ref) merge() Traits {
	t := r.Shape.Traits
	if r.Location != "" {
		t.Location = r.Location
	}
	if r.LocationName != "" {
		t.LocationName = r.LocationName
	}
	t.Flattened = t.Flattened || r.Flattened
	if r.XMLNamespace != "" {
		t.XMLNamespace = r.XMLNamespace
	}
	t.XMLAttribute = t.XMLAttribute || r.XMLAttribute
	t.Streaming = t.Streaming || r.Streaming
	t.IdempotencyToken = t.IdempotencyToken || r.IdempotencyToken
	t.JSONValue = t.JSONValue || r.JSONValue
	return t
}

// member is the structure's member named name, or nil.
func (s *Shape) member(name string) *Ref {
	for _, m := range s.Members {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// isRequired reports whether the structure requires member name.
func (s *Shape) isRequired(name string) bool {
	for _, r := range s.Required {
		if r == name {
			return true
		}
	}
	return false
}

// Operation is the operation the CLI calls cliName (list-object-versions),
// or nil.
func (m *Model) Operation(cliName string) *Operation { return m.byCLIName[cliName] }

var s3Model = sync.OnceValues(func() (*Model, error) { return loadModel(modelJSON) })

// loadModel decodes a model and links its references to their shapes.
func loadModel(data []byte) (*Model, error) {
	var m Model
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("awscli: the service model: %w", err)
	}
	link := func(r *Ref) error {
		if r == nil {
			return nil
		}
		r.Shape = m.Shapes[r.ShapeName]
		if r.Shape == nil {
			return fmt.Errorf("awscli: the service model has no shape %q", r.ShapeName)
		}
		return nil
	}
	m.byCLIName = make(map[string]*Operation, len(m.Operations))
	for _, op := range m.Operations {
		m.byCLIName[op.CLIName] = op
		for _, r := range []*Ref{op.Input, op.Output} {
			if err := link(r); err != nil {
				return nil, err
			}
		}
	}
	for name, s := range m.Shapes {
		s.Name = name
		for _, r := range append(s.Members, s.Member, s.Key, s.Value) {
			if err := link(r); err != nil {
				return nil, err
			}
		}
	}
	for _, op := range m.Operations {
		for _, r := range []*Ref{op.Input, op.Output} {
			if r != nil {
				r.merged = r.merge()
			}
		}
	}
	for _, s := range m.Shapes {
		for _, r := range append(s.Members, s.Member, s.Key, s.Value) {
			if r != nil {
				r.merged = r.merge()
			}
		}
	}
	return &m, nil
}
