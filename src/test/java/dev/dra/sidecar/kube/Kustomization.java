package dev.dra.sidecar.kube;

import dev.dra.sidecar.testsupport.Kustomize;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One of deploy/kubernetes's kustomizations on the test API server, as a user applies and removes it: its objects as
 * {@code kubectl apply -k} renders them, each created or updated, and deleted again but for its Namespace.
 */
final class Kustomization {

    /** Node mode's kustomization: the agent's DaemonSet, its identity and RBAC, and the node-mode injection. */
    static final Path NODE_MODE_DIR = Path.of("deploy", "kubernetes", "node");

    private final KubeApiServerExtension api;
    private final Path dir;

    Kustomization(KubeApiServerExtension api, Path dir) {
        this.api = api;
        this.dir = dir;
    }

    /** Node mode's kustomization ({@link #NODE_MODE_DIR}) on {@code api}. */
    static Kustomization nodeMode(KubeApiServerExtension api) {
        return new Kustomization(api, NODE_MODE_DIR);
    }

    /** The kustomization's objects, rendered anew. */
    List<HasMetadata> objects() throws Exception {
        return api.load(Kustomize.render(dir));
    }

    /** Creates every object of the kustomization, or replaces it as it is there (a test may have changed it). */
    void apply() throws Exception {
        for (HasMetadata object : objects()) {
            api.client().resource(object).createOr(NonDeletingOperation::update);
        }
    }

    /**
     * Deletes every object of the kustomization but its Namespace (this API server has no controller that would
     * finish a namespace's deletion), in the reverse of their order: the bindings before their policy.
     */
    void remove() throws Exception {
        List<HasMetadata> objects = new ArrayList<>(objects());
        Collections.reverse(objects);
        for (HasMetadata object : objects) {
            if (!object.getKind().equals("Namespace")) {
                api.client().resource(object).delete();
            }
        }
    }
}
