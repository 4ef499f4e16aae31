package dev.ovnj.kubernetes;

import java.util.Objects;

/**
 * The answer to a health probe ({@link OvnjKubernetesController#liveness()},
 * {@link OvnjKubernetesController#readiness()}): whether it passes, and why in words.
 *
 * @param ok whether the probe passes
 * @param detail why, e.g. {@code informers not synced yet}
 */
public record ProbeResult(boolean ok, String detail) {
    /**
     * Checks the fields.
     *
     * @param ok whether the probe passes
     * @param detail why
     */
    public ProbeResult {
        Objects.requireNonNull(detail, "detail");
    }
}
