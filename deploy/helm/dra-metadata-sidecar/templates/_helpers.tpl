{{/*
The name of the policy, its bindings and its parameter ConfigMap: fullnameOverride, else the release name
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

{{/* The Helm recommended labels of every object the chart makes. */}}
{{- define "dra-metadata-sidecar.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/component: injection
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* The sidecar's image reference: pinned by digest when one is given, else by tag. */}}
{{- define "dra-metadata-sidecar.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) -}}
{{- end -}}
{{- end -}}
