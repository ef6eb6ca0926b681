/**
 * Go's {@code encoding/json}, as Kubernetes reads JSON with it, for the decoder: {@link
 * dev.dra.sidecar.decode.gojson.GoCompatibleJson}, the one Jackson configuration that reads and writes metadata as
 * Go does (with {@link dev.dra.sidecar.decode.gojson.SharedStrings}, which holds repeated values once); Go's view of
 * text ({@link dev.dra.sidecar.decode.gojson.GoText}: UTF-8 and escapes, {@link
 * dev.dra.sidecar.decode.gojson.GoUnicode}: the toolchain's Unicode tables); Go's scanner, for where a stream ends
 * and how a syntax error is worded ({@link dev.dra.sidecar.decode.gojson.GoSyntaxScanner}, {@link
 * dev.dra.sidecar.decode.gojson.GoScalarScanner}); the Go types behind the JSON, for Go's type errors ({@link
 * dev.dra.sidecar.decode.gojson.GoTypes}, {@link dev.dra.sidecar.decode.gojson.GoMetaTypes}); and what Go makes of
 * a repeated key ({@link dev.dra.sidecar.decode.gojson.GoRepeatedKeys}). Needs the model and nothing of the decoder.
 */
package dev.dra.sidecar.decode.gojson;
