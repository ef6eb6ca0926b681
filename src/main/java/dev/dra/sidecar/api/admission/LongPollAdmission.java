package dev.dra.sidecar.api.admission;

import dev.dra.sidecar.api.ApiConfig;
import dev.dra.sidecar.api.problem.ApiException;
import dev.dra.sidecar.api.problem.ProblemType;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.inject.Singleton;

/**
 * Admits at most {@code dra.api.max-long-polls} waiting long polls. A long poll past the bound is refused at once
 * with {@code 503 too-many-long-polls}, {@code Retry-After} and {@code Connection: close}, so that a client opening
 * waits without end can make the sidecar hold neither more waiters nor their connections. Every refusal counts in
 * {@code dra_long_poll_refusals_total}.
 */
@Singleton
@Startup // the refusal counter is exposed, at 0, from the start
public class LongPollAdmission {

    private final AdmissionLimit limit;

    LongPollAdmission(ApiConfig config, MeterRegistry registry) {
        this.limit = new AdmissionLimit(config.maxLongPolls(), registry, "dra.long.poll.refusals",
                "Long polls refused with 503 too-many-long-polls (dra.api.max-long-polls reached)");
    }

    /**
     * Takes one of the places; the caller must {@link #release()} it exactly once when the wait ends, however it
     * ends.
     *
     * @throws ApiException {@code 503 too-many-long-polls} when every place is taken
     */
    public void admit() {
        if (!limit.tryAdmit()) {
            throw new ApiException(ProblemType.TOO_MANY_LONG_POLLS, "this sidecar already holds its limit of "
                    + limit.max() + " waiting long polls (dra.api.max-long-polls); poll again after Retry-After");
        }
    }

    public void release() {
        limit.release();
    }
}
