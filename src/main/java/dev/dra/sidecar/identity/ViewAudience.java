package dev.dra.sidecar.identity;

import java.util.ArrayList;
import java.util.List;

/**
 * Which view a token asks for, by its audience. The agent's audience ({@code dra.metadata.node.audience}) asks for
 * the pod's view: every claim of the pod. {@code <audience>/<container>} asks for that container's: the claims and
 * requests it lists and its extended resources, as the kubelet mounts them into it (node mode's injection projects
 * each container that lists claims a token of its own). Holds nothing.
 */
final class ViewAudience {

    private ViewAudience() {}

    /**
     * The container {@code audiences} name: from the first {@code <audience>/<container>} among them; {@code ""} when
     * only the agent's audience itself is among them (the pod's view); {@code null} when neither is.
     */
    static String container(String audience, Iterable<String> audiences) {
        String container = null;
        String prefix = audience + "/";
        for (String each : audiences) {
            if (each.startsWith(prefix) && each.length() > prefix.length()) {
                return each.substring(prefix.length());
            }
            if (each.equals(audience)) {
                container = "";
            }
        }
        return container;
    }

    /** The agent's audience and the container audiences among {@code audiences}, in that order. */
    static List<String> agents(String audience, Iterable<String> audiences) {
        List<String> out = new ArrayList<>(List.of(audience));
        for (String each : audiences) {
            if (each.startsWith(audience + "/") && each.length() > audience.length() + 1 && !out.contains(each)) {
                out.add(each);
            }
        }
        return out;
    }

    /** What a refusal says the token is not for. */
    static String describe(String audience) {
        return "audience " + audience + " (the pod's view) nor " + audience + "/<container> (a container's)";
    }
}
