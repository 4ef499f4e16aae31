package dev.ovnj.lb.spec;

import java.util.Objects;
import java.util.Optional;

/**
 * An OVN health check of one VIP's backends ({@code Load_Balancer_Health_Check}, ovn-nb(5)): OVN's
 * service monitor probes every backend from {@code sourceIp} and stops sending traffic to a backend
 * once {@code failureCount} probes in a row failed, until {@code successCount} succeed again. A
 * backend of a checked VIP that has no logical port mapped gets no traffic at all.
 *
 * @param interval seconds between probes ({@code options:interval}), 1..3600
 * @param timeout seconds to wait for an answer ({@code options:timeout}), 1..3600
 * @param successCount probes in a row that bring a backend back ({@code options:success_count}), 1..100
 * @param failureCount probes in a row that take a backend out ({@code options:failure_count}), 1..100
 * @param sourceIp the address the monitor probes from, inside the backend's switch subnet; empty to
 *     take it from the spec's {@code healthCheckSources} for the backend's switch and address family,
 *     or, without one there, to let the engine choose it (shown in {@code SpecStatus.healthCheckSources()})
 */
public record HealthCheck(int interval, int timeout, int successCount, int failureCount, Optional<String> sourceIp) {

    /** OVN's defaults (ovn-nb(5)): every 5 s, 20 s timeout, 3 successes, 3 failures; source given per switch or chosen. */
    public static final HealthCheck DEFAULTS = new HealthCheck(5, 20, 3, 3, Optional.empty());

    /**
     * Checks for null.
     *
     * @param interval seconds between probes
     * @param timeout seconds to wait for an answer
     * @param successCount probes in a row that bring a backend back
     * @param failureCount probes in a row that take a backend out
     * @param sourceIp the address the monitor probes from, or empty
     */
    public HealthCheck {
        Objects.requireNonNull(sourceIp, "sourceIp");
    }

    /**
     * Returns a copy probing every {@code seconds}.
     *
     * @param seconds 1..3600
     * @return the new health check
     */
    public HealthCheck withInterval(int seconds) {
        return new HealthCheck(seconds, timeout, successCount, failureCount, sourceIp);
    }

    /**
     * Returns a copy waiting {@code seconds} for an answer.
     *
     * @param seconds 1..3600
     * @return the new health check
     */
    public HealthCheck withTimeout(int seconds) {
        return new HealthCheck(interval, seconds, successCount, failureCount, sourceIp);
    }

    /**
     * Returns a copy with success and failure counts.
     *
     * @param success probes in a row that bring a backend back
     * @param failure probes in a row that take a backend out
     * @return the new health check
     */
    public HealthCheck withCounts(int success, int failure) {
        return new HealthCheck(interval, timeout, success, failure, sourceIp);
    }

    /**
     * Returns a copy probing from {@code ip}.
     *
     * @param ip an address in the backends' switch subnet, not any port's address
     * @return the new health check
     */
    public HealthCheck withSourceIp(String ip) {
        return new HealthCheck(interval, timeout, successCount, failureCount, Optional.of(ip));
    }
}
