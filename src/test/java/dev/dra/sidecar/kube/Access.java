package dev.dra.sidecar.kube;

import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;

/** What the API server's authorizer (RBAC here) says a user may do: a SubjectAccessReview. */
final class Access {

    private Access() {}

    /** Whether {@code user} may {@code verb} {@code resource} (a {@code resource/subresource} too) of {@code group}, cluster-wide. */
    static boolean allowed(KubeApiServerExtension api, String user, String verb, String group, String resource) {
        String[] parts = resource.split("/", 2);
        SubjectAccessReview review = new SubjectAccessReviewBuilder().withNewSpec().withUser(user)
                .withNewResourceAttributes().withVerb(verb).withGroup(group).withResource(parts[0])
                .withSubresource(parts.length == 2 ? parts[1] : null).endResourceAttributes().endSpec().build();
        return api.client().resource(review).create().getStatus().getAllowed();
    }

    /** Whether {@code user} may {@code verb} the non-resource URL {@code path}, such as {@code /openid/v1/jwks}. */
    static boolean allowedPath(KubeApiServerExtension api, String user, String verb, String path) {
        SubjectAccessReview review = new SubjectAccessReviewBuilder().withNewSpec().withUser(user)
                .withNewNonResourceAttributes().withVerb(verb).withPath(path).endNonResourceAttributes().endSpec()
                .build();
        return api.client().resource(review).create().getStatus().getAllowed();
    }
}
