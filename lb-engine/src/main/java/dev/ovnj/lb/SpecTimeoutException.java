package dev.ovnj.lb;

import java.time.Duration;
import java.util.Map;

/**
 * An {@code apply}, {@code upsert} or {@code remove} did not reach a verdict within the engine's
 * {@link LoadBalancerEngine.Builder#requestTimeout request timeout}, typically because the
 * database is unavailable (no connection, no quorum, the lock held by another replica) or does not
 * answer. Only the wait ends: the engine keeps the declaration of an {@code apply} or a
 * {@code remove} (and of an {@code upsert} with {@link UpsertOption#KEEP_DECLARED}) and goes on
 * reconciling it, so the spec reaches its verdict (visible in {@link LoadBalancerEngine#status})
 * once the database is back, without a new call. An {@code upsert} without that option is
 * withdrawn: its spec's previous declaration stands again, or none.
 */
public final class SpecTimeoutException extends EngineException {
    private static final long serialVersionUID = 1L;
    private final String owner;
    private final Duration timeout;
    private final String waitingFor;
    private final transient Map<String, SpecStatus> statuses;

    SpecTimeoutException(String owner, Duration timeout, String waitingFor, Map<String, SpecStatus> statuses) {
        super("owner " + owner + (statuses.isEmpty() ? "" : ", spec(s) " + String.join(", ", statuses.keySet()))
                + ": no verdict within " + words(timeout) + ": " + waitingFor
                + " (the engine keeps reconciling)");
        this.owner = owner;
        this.timeout = timeout;
        this.waitingFor = waitingFor;
        this.statuses = Map.copyOf(statuses);
    }

    private static String words(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    /**
     * The owner of the request.
     *
     * @return the owner
     */
    public String owner() {
        return owner;
    }

    /**
     * The bound that expired.
     *
     * @return the request timeout
     */
    public Duration timeout() {
        return timeout;
    }

    /**
     * What the engine was waiting for when the bound expired, in words: why the database is
     * unavailable (e.g. {@code not connected to the Northbound database}, {@code lock ovnj held by
     * another replica}) or, while it is available, the undecided spec's own reason (e.g. a retry
     * after a server error, or a transaction still unanswered).
     *
     * @return the reason
     */
    public String waitingFor() {
        return waitingFor;
    }

    /**
     * The specs of the request still without a verdict, by name, each with the status snapshot
     * published when the bound expired (PENDING or APPLYING; empty when the engine had not yet
     * taken the request in).
     *
     * @return spec name to status
     */
    public Map<String, SpecStatus> statuses() {
        return statuses;
    }
}
