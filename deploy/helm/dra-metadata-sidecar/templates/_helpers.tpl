{{/*
The name of the policy and its bindings: fullnameOverride, else the release name
when it contains the chart name, else <release>-<chart>; at most 53 characters so that "-namespaces" fits
the 63 of a name.
*/}}
{{- define "dra-metadata-sidecar.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 53 | trimSuffix "-" -}}
{{- else if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 53 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 53 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* The Helm recommended labels of every object of the injection (the policies, bindings and parameters). */}}
{{- define "dra-metadata-sidecar.labels" -}}
{{- include "dra-metadata-sidecar.componentLabels" (list . "injection") -}}
{{- end -}}

{{/* The same labels on the node-mode agent's objects (DaemonSet, ServiceAccount, RBAC). */}}
{{- define "dra-metadata-sidecar.agentLabels" -}}
{{- include "dra-metadata-sidecar.componentLabels" (list . "node-agent") -}}
{{- end -}}

{{/* The same labels on the RBAC that lets injected sidecars read the resource API (resourceApi). */}}
{{- define "dra-metadata-sidecar.resourceApiLabels" -}}
{{- include "dra-metadata-sidecar.componentLabels" (list . "resource-api") -}}
{{- end -}}

{{/* The Helm recommended labels, for (list <root context> <component>). */}}
{{- define "dra-metadata-sidecar.componentLabels" -}}
{{- $root := index . 0 -}}
helm.sh/chart: {{ printf "%s-%s" $root.Chart.Name $root.Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ $root.Chart.Name }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
app.kubernetes.io/version: {{ $root.Chart.AppVersion | quote }}
app.kubernetes.io/component: {{ index . 1 }}
app.kubernetes.io/managed-by: {{ $root.Release.Service }}
{{- end -}}

{{/* The sidecar's image reference: pinned by digest when one is given, else by tag. */}}
{{/*
The injection policy's parameters as pretty JSON, its keys sorted: image, cpu-request, memory-request, memory-limit,
DRA_METADATA_RESOURCE_API_ENABLED "true" with resourceApi.enabled, and the settings.
*/}}
{{- define "dra-metadata-sidecar.parameters" -}}
{{- $parameters := dict "image" (include "dra-metadata-sidecar.image" .) "cpu-request" (toString .Values.resources.requests.cpu) "memory-request" (toString .Values.resources.requests.memory) "memory-limit" (toString .Values.resources.limits.memory) -}}
{{- if .Values.resourceApi.enabled -}}
{{- $_ := set $parameters "DRA_METADATA_RESOURCE_API_ENABLED" "true" -}}
{{- end -}}
{{- range $name, $value := .Values.settings -}}
{{- $_ := set $parameters $name (toString $value) -}}
{{- end -}}
{{- toPrettyJson $parameters -}}
{{- end -}}

{{- define "dra-metadata-sidecar.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) -}}
{{- end -}}
{{- end -}}
