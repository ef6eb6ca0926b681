package dev.dra.sidecar.api.caller;

import dev.dra.sidecar.api.path.PathNames;
import dev.dra.sidecar.api.problem.ApiException;
import dev.dra.sidecar.api.problem.ProblemType;
import dev.dra.sidecar.identity.PodInfo;
import dev.dra.sidecar.identity.PodView;
import dev.dra.sidecar.model.ExtendedResourceIndex;
import dev.dra.sidecar.snapshot.BodyEncoding;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.snapshot.Served;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Who is asking, as the API sees it: what a request may read. Every read of claims goes through {@link #view}, so a
 * caller is answered from its own view and from nothing else. The sidecar's one caller is its own container; in node
 * mode each request's caller is a pod ({@link CallerResolver}).
 */
public interface Caller {

    /** The request-context key the request pipeline stores the caller under. */
    String KEY = "dra.caller";

    /**
     * What this caller reads of {@code published}, a snapshot of the store: all of it (sidecar), or the calling pod's
     * claims only, as published with it or since (node mode).
     */
    MetadataSnapshot view(MetadataSnapshot published);

    /** Whether the caller's containers see the claim named {@code claim} of {@code kind}. */
    boolean owns(ClaimKind kind, String claim);

    /** {@code {"containers":[...]}}: the caller's extended resources. */
    Served.Available extendedIndex();

    /** The claim and request serving {@code container}'s {@code resource}; else the problem that says there is none. */
    PodInfo.ExtendedResource extended(String container, String resource);

    /** The sidecar's caller: its own container, which sees every file of its tree. */
    Caller CONTAINER = new Caller() {
        private final Served.Available none = BodyEncoding.encode(new ExtendedResourceIndex(List.of()));

        @Override
        public MetadataSnapshot view(MetadataSnapshot published) {
            return published;
        }

        @Override
        public boolean owns(ClaimKind kind, String claim) {
            return true;
        }

        @Override
        public Served.Available extendedIndex() {
            return none;
        }

        @Override
        public PodInfo.ExtendedResource extended(String container, String resource) {
            throw new ApiException(ProblemType.NOT_FOUND, "a sidecar does not know which claim serves an extended "
                    + "resource; serve pods with extended resources with the node agent (dra.metadata.mode=node)");
        }
    };

    /** A pod of the node, through its {@link PodView}; {@code current} makes its view again from newer claims. */
    static Caller pod(PodView first, UnaryOperator<PodView> current) {
        return new Caller() {
            private volatile PodView view = first;

            @Override
            public MetadataSnapshot view(MetadataSnapshot published) {
                PodView now = current.apply(view);
                view = now;
                return now.snapshot();
            }

            @Override
            public boolean owns(ClaimKind kind, String claim) {
                return view.owns(kind, claim);
            }

            @Override
            public Served.Available extendedIndex() {
                return view.extendedIndex();
            }

            @Override
            public PodInfo.ExtendedResource extended(String container, String resource) {
                Optional<PodInfo.ExtendedResource> found = view.extended(container, resource);
                return found.orElseThrow(() -> new ApiException(ProblemType.NOT_OWN_CLAIM, view.caller()
                        + " has no extended resource "
                        + PathNames.quote(resource) + " in container " + PathNames.quote(container)));
            }
        };
    }
}
