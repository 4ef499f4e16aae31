package dev.ovnj.kubernetes;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The controller's reconciliation meters, beside the engine's and the client's (bound by
 * {@link OvnjKubernetesController} through {@code ovnj-micrometer}) and the state gauges of
 * {@link ControllerGauges}:
 * <ul>
 *   <li>{@code ovnj.kubernetes.reconcile} ({@code result}: {@value #READY}, {@value #NOT_READY},
 *       {@value #ERROR}), a timer of each Service reconciliation;</li>
 *   <li>{@code ovnj.kubernetes.reconcile.errors} ({@code reason}), a counter of reconciliations
 *       that left a Service not ready, by its condition reason ({@value #EXCEPTION} for one that
 *       threw), every reason of {@link ConditionReasons#ALL} but {@code APPLIED} registered at 0;</li>
 *   <li>{@code ovnj.kubernetes.conditions} ({@code reason}), a counter of condition changes.</li>
 * </ul>
 */
final class ControllerMetrics {
    /** The result of a reconciliation that left the Service's load balancer applied. */
    static final String READY = "ready";
    /** The result of one that left it refused, conflicting, waiting or failed (a condition says why). */
    static final String NOT_READY = "not_ready";
    /** The result of one that threw (JOSDK retries it). */
    static final String ERROR = "error";
    /** The error reason of a reconciliation that threw. */
    static final String EXCEPTION = "Exception";
    private static final String APPLIED = "APPLIED";

    private final MeterRegistry registry;
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();
    private final Map<String, Counter> errors = new ConcurrentHashMap<>();

    ControllerMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (String result : new String[] {READY, NOT_READY, ERROR}) {
            timers.put(result, Timer.builder("ovnj.kubernetes.reconcile").description("one Service reconciliation, by its result")
                    .tag("result", result).register(registry));
        }
        for (String reason : ConditionReasons.ALL) {
            if (!reason.equals(APPLIED)) {
                error(reason);
            }
        }
        error(EXCEPTION);
    }

    /**
     * One reconciliation ended.
     *
     * @param nanos how long it took
     * @param reason the Service's condition reason after it, {@code APPLIED} when ready; null when
     *     it threw; empty when the Service has no condition (not served)
     */
    void reconciled(long nanos, String reason) {
        String result = reason == null ? ERROR : reason.equals(APPLIED) || reason.isEmpty() ? READY : NOT_READY;
        timers.get(result).record(nanos, TimeUnit.NANOSECONDS);
        if (reason == null) {
            error(EXCEPTION).increment();
        } else if (result.equals(NOT_READY)) {
            error(reason).increment();
        }
    }

    void condition(String reason) {
        Counter.builder("ovnj.kubernetes.conditions").description("conditions set on Services, by reason")
                .tag("reason", reason).register(registry).increment();
    }

    private Counter error(String reason) {
        return errors.computeIfAbsent(reason, r -> Counter.builder("ovnj.kubernetes.reconcile.errors")
                .description("reconciliations that left a Service not ready, by its condition reason (Exception: one threw)")
                .tag("reason", r).register(registry));
    }
}
