package dev.ovnj.lb.diagnosis;

import java.util.Objects;

/**
 * A check that did not run, and why (no Southbound database given, {@code ovn-trace} missing).
 *
 * @param code the check's code
 * @param reason why it did not run
 */
public record SkippedCheck(FindingCode code, String reason) {
    /**
     * Checks the fields.
     *
     * @param code the check's code
     * @param reason why it did not run
     */
    public SkippedCheck {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(reason, "reason");
    }
}
