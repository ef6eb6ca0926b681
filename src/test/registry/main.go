// Command registry is the OCI registry of the tests: go-containerregistry's registry (blobs on disk, the
// referrers API on) behind TLS and HTTP basic authentication, as a private registry a user's nodes pull from.
//
// Contract: serves on -addr with the certificate and key of -cert/-key; every request must carry the basic
// credentials of -auth (a file holding "user:password"), else it gets 401 with a Basic challenge, as a private
// registry answers (containerd, podman, helm and cosign then send the credentials they were given). Prints
// "listening on ADDR" once the socket accepts, and serves until SIGTERM or SIGINT.
package main

import (
	"context"
	"crypto/subtle"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/google/go-containerregistry/pkg/registry"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:5443", "address to listen on")
	cert := flag.String("cert", "", "TLS certificate (PEM)")
	key := flag.String("key", "", "TLS private key (PEM)")
	auth := flag.String("auth", "", `file holding "user:password"`)
	blobs := flag.String("blobs", "", "directory for the blobs")
	flag.Parse()
	if *cert == "" || *key == "" || *auth == "" || *blobs == "" {
		log.Fatal("registry: -cert, -key, -auth and -blobs are required")
	}
	credentials, err := os.ReadFile(*auth)
	if err != nil {
		log.Fatalf("registry: %v", err)
	}
	user, password, ok := strings.Cut(strings.TrimSpace(string(credentials)), ":")
	if !ok || user == "" || password == "" {
		log.Fatalf("registry: %s must hold user:password", *auth)
	}
	if err := os.MkdirAll(*blobs, 0o700); err != nil {
		log.Fatalf("registry: %v", err)
	}
	handler := registry.New(registry.WithBlobHandler(registry.NewDiskBlobHandler(*blobs)),
		registry.WithReferrersSupport(true))
	listener, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("registry: %v", err)
	}
	server := &http.Server{Handler: basicAuth(user, password, handler), ReadHeaderTimeout: 10 * time.Second}
	fmt.Printf("listening on %s\n", listener.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = server.Shutdown(shutdown)
	}()
	if err := server.ServeTLS(listener, *cert, *key); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatalf("registry: %v", err)
	}
}

// basicAuth lets through only requests carrying user and password; any other gets the challenge.
func basicAuth(user, password string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, p, ok := r.BasicAuth()
		if !ok || subtle.ConstantTimeCompare([]byte(u), []byte(user)) != 1 ||
			subtle.ConstantTimeCompare([]byte(p), []byte(password)) != 1 {
			w.Header().Set("WWW-Authenticate", `Basic realm="dra-metadata-sidecar test registry"`)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"errors":[{"code":"UNAUTHORIZED","message":"authentication required"}]}`))
			log.Printf("%s %s 401", r.Method, r.URL)
			return
		}
		next.ServeHTTP(w, r)
	})
}
