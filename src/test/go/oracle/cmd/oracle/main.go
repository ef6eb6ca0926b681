// Command oracle answers, one JSON line per request line on stdin, what the upstream devicemetadata package
// (k8s.io/dynamic-resource-allocation) returns for a metadata stream or for a request directory, so that the
// sidecar's answers can be compared with the Go reader's own.
//
// Requests (one JSON object per line):
//
//	{"op":"decode","stream":"<base64>"}
//	    DecodeMetadataFromStream into the internal type with DecodeMetadataWithValidationResult and
//	    DecodeMetadataStoreGVKResult, as readMetadata does.
//	{"op":"read","kind":"claims"|"template-claims","claim":"c","request":"r"}
//	    ReadResourceClaimMetadata / ReadResourceClaimTemplateMetadata.
//	{"op":"read","kind":...,"claim":...,"request":...,"driver":"d"}
//	    the ...WithDriverName variants.
//	{"op":"canonical","object":{...}}
//	    the object read strictly (case-sensitive, no unknown fields) as a v1beta1 DeviceMetadata and marshalled
//	    again: how Go sees JSON that the sidecar served.
//
// Answers: {"ok":true,"object":<v1beta1 JSON as Go marshals it>,"apiVersion":"...","violations":[...]} or
// {"ok":false,"error":"<the error text>"}. The read functions use the fixed container path
// /var/run/kubernetes.io/dra-device-attributes: run the oracle where the tree is mounted there.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/dynamic-resource-allocation/api/metadata"
	"k8s.io/dynamic-resource-allocation/api/metadata/install"
	metadatav1beta1 "k8s.io/dynamic-resource-allocation/api/metadata/v1beta1"
	"k8s.io/dynamic-resource-allocation/devicemetadata"
	sigsjson "sigs.k8s.io/json"
)

var scheme = install.NewScheme()

type request struct {
	Op      string          `json:"op"`
	Stream  []byte          `json:"stream"`
	Kind    string          `json:"kind"`
	Claim   string          `json:"claim"`
	Request string          `json:"request"`
	Driver  string          `json:"driver"`
	Object  json.RawMessage `json:"object"`
}

type violation struct {
	Field  string `json:"field"`
	Type   string `json:"type"`
	Detail string `json:"detail"`
}

type answer struct {
	OK         bool            `json:"ok"`
	Error      string          `json:"error,omitempty"`
	Object     json.RawMessage `json:"object,omitempty"`
	APIVersion string          `json:"apiVersion,omitempty"`
	Violations []violation     `json:"violations,omitempty"`
}

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, err := in.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var req request
			var a answer
			if jerr := json.Unmarshal(line, &req); jerr != nil {
				a = answer{Error: "oracle: bad request line: " + jerr.Error()}
			} else {
				a = handle(req)
			}
			encoded, merr := json.Marshal(a)
			if merr != nil {
				encoded, _ = json.Marshal(answer{Error: "oracle: " + merr.Error()})
			}
			out.Write(encoded)
			out.WriteByte('\n')
			out.Flush()
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "oracle:", err)
			os.Exit(1)
		}
	}
}

func handle(req request) answer {
	switch req.Op {
	case "decode":
		return decode(req.Stream)
	case "read":
		return read(req)
	case "canonical":
		return canonical(req.Object)
	default:
		return answer{Error: "oracle: unknown op " + req.Op}
	}
}

func decode(stream []byte) answer {
	var dm metadata.DeviceMetadata
	var validation error
	var gvk schema.GroupVersionKind
	err := devicemetadata.DecodeMetadataFromStream(json.NewDecoder(bytes.NewReader(stream)), &dm,
		devicemetadata.DecodeMetadataWithValidationResult(&validation),
		devicemetadata.DecodeMetadataStoreGVKResult(&gvk))
	if err != nil {
		return answer{Error: err.Error()}
	}
	a := success(&dm)
	a.APIVersion = gvk.GroupVersion().String()
	a.Violations = violations(validation)
	return a
}

func read(req request) answer {
	var dm *metadata.DeviceMetadata
	var err error
	switch {
	case req.Kind == "claims" && req.Driver == "":
		dm, err = devicemetadata.ReadResourceClaimMetadata(req.Claim, req.Request)
	case req.Kind == "claims":
		dm, err = devicemetadata.ReadResourceClaimMetadataWithDriverName(req.Driver, req.Claim, req.Request)
	case req.Kind == "template-claims" && req.Driver == "":
		dm, err = devicemetadata.ReadResourceClaimTemplateMetadata(req.Claim, req.Request)
	case req.Kind == "template-claims":
		dm, err = devicemetadata.ReadResourceClaimTemplateMetadataWithDriverName(req.Driver, req.Claim, req.Request)
	default:
		return answer{Error: "oracle: unknown kind " + req.Kind}
	}
	if err != nil {
		return answer{Error: err.Error()}
	}
	return success(dm)
}

// success marshals an internal object as metadata.resource.k8s.io/v1beta1, the version the sidecar serves.
func success(dm *metadata.DeviceMetadata) answer {
	var versioned metadatav1beta1.DeviceMetadata
	if err := scheme.Convert(dm, &versioned, nil); err != nil {
		return answer{Error: "oracle: convert to v1beta1: " + err.Error()}
	}
	versioned.SetGroupVersionKind(metadatav1beta1.SchemeGroupVersion.WithKind("DeviceMetadata"))
	encoded, err := json.Marshal(&versioned)
	if err != nil {
		return answer{Error: "oracle: marshal: " + err.Error()}
	}
	return answer{OK: true, Object: encoded}
}

func canonical(object json.RawMessage) answer {
	var versioned metadatav1beta1.DeviceMetadata
	strictErrs, err := sigsjson.UnmarshalStrict(object, &versioned)
	if err != nil {
		return answer{Error: err.Error()}
	}
	if len(strictErrs) > 0 {
		return answer{Error: errors.Join(strictErrs...).Error()}
	}
	encoded, err := json.Marshal(&versioned)
	if err != nil {
		return answer{Error: "oracle: marshal: " + err.Error()}
	}
	return answer{OK: true, Object: encoded}
}

// violations flattens the aggregate that DecodeMetadataWithValidationResult stores into its field errors;
// the type is the field.ErrorType name without its "FieldValue" prefix, as the sidecar reports it.
func violations(err error) []violation {
	if err == nil {
		return nil
	}
	var list []error
	var aggregate utilerrors.Aggregate
	if errors.As(err, &aggregate) {
		list = aggregate.Errors()
	} else {
		list = []error{err}
	}
	out := make([]violation, 0, len(list))
	for _, e := range list {
		var fe *field.Error
		if errors.As(e, &fe) {
			out = append(out, violation{Field: fe.Field, Type: strings.TrimPrefix(string(fe.Type), "FieldValue"), Detail: fe.Detail})
		} else {
			out = append(out, violation{Type: "NotAFieldError", Detail: e.Error()})
		}
	}
	return out
}
