# Sourced by start.sh (after teardown.sh, which names the node's addresses): kube-proxy, in iptables mode, which
# routes the pods' connections to a Service's address (service_range) to its endpoints, as on a cluster's node.
#
# What it changes on the host, and nothing else: iptables chains named KUBE-* and the rules that lead to them
# (teardown.sh's remove_kube_chains removes them, also after a killed run) in the host's network namespace. It
# leaves the sysctls as they are (no conntrack sizing or timeouts, no route_localnet: node ports are not served on
# 127.0.0.1) and serves node ports on the node's address only.
#
# Functions (start.sh's run, kubeconfig, node, start_process and wait_for in scope):
#   start_kube_proxy    writes its configuration, starts it (start_process kube-proxy) and returns once it has
#                       written its rules (/healthz answers 200)

kube_proxy_healthz=127.0.0.1:10256

start_kube_proxy() {
  cat >"$run/kube-proxy.yaml" <<YAML
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection:
  kubeconfig: $kubeconfig
hostnameOverride: $node
mode: iptables
# Connections from outside the pods' range to a Service are masqueraded; a pod's keep their source address.
clusterCIDR: $pod_subnet
nodePortAddresses: ["$node_ip/32"]
iptables:
  localhostNodePorts: false
conntrack:
  maxPerCore: 0
  min: 0
  tcpEstablishedTimeout: 0s
  tcpCloseWaitTimeout: 0s
healthzBindAddress: $kube_proxy_healthz
metricsBindAddress: 127.0.0.1:10249
oomScoreAdj: 0
YAML
  start_process kube-proxy "${k8s[kube-proxy]}" --config="$run/kube-proxy.yaml"
  wait_for "kube-proxy's rules" 60 curl -fsS "http://$kube_proxy_healthz/healthz"
}
