/**
 * go-yaml v2 as apimachinery's YAML path meets a stream value that is not an object: {@link
 * dev.dra.sidecar.decode.goyaml.GoYamlPath} says whether go-yaml (through {@code sigs.k8s.io/yaml}) reads such a
 * value and, where it does not, Go's error. Everything else here serves it: the rules where go-yaml refuses JSON
 * ({@code GoYamlScanner}, with the reader's chunks), and a port of go-yaml's reader, scanner, parser and decoder
 * ({@code GoYamlReader}, {@code GoYamlTokens}, {@code GoYamlScalars}, {@code GoYamlEvents}, {@code GoYamlTree},
 * {@code GoYamlResolve}, {@code GoYamlJson}) for the arrays whose answer the rules cannot give. Needs nothing else
 * of the decoder.
 */
package dev.dra.sidecar.decode.goyaml;
