package dev.ovnj.kubernetes;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;

/**
 * The controller's own meters, beside the engine's and the client's (bound by
 * {@link OvnjKubernetesController} through {@code ovnj-micrometer}):
 * {@code ovnj.kubernetes.reconcile} (a timer) and {@code ovnj.kubernetes.conditions} (a counter
 * per condition reason set on a Service).
 */
final class ControllerMetrics {
    private final MeterRegistry registry;
    private final Timer reconcile;

    ControllerMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.reconcile = Timer.builder("ovnj.kubernetes.reconcile").description("one Service reconciliation").register(registry);
    }

    void reconciled(long nanos) {
        reconcile.record(nanos, TimeUnit.NANOSECONDS);
    }

    void condition(String reason) {
        Counter.builder("ovnj.kubernetes.conditions").description("conditions set on Services, by reason")
                .tag("reason", reason).register(registry).increment();
    }
}
