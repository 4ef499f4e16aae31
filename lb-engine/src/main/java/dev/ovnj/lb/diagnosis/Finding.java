package dev.ovnj.lb.diagnosis;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One problem found: what (a stable code and its severity), where (the load balancer's spec name
 * and, when it applies, the VIP), a one-line message with the concrete names, uuids and networks,
 * and a one-line fix. A cause shared by several load balancers (a router without a gateway) is one
 * finding naming all of them in {@link #lbs()}.
 *
 * @param code the stable code
 * @param lb the load balancer's spec name (the Load_Balancer row's name appears in the message);
 *        the first of {@code lbs}
 * @param vip the VIP in OVN's form ({@code IP:PORT}), when the finding is about one VIP
 * @param message what is wrong, with the concrete values
 * @param fix what to do about it
 * @param lbs every load balancer (spec name) the finding is about, {@code lb} first
 */
public record Finding(FindingCode code, String lb, Optional<String> vip, String message, String fix, List<String> lbs) {

    /**
     * Checks the fields.
     *
     * @param code the stable code
     * @param lb the load balancer's spec name
     * @param vip the VIP, when the finding is about one VIP
     * @param message what is wrong
     * @param fix what to do about it
     * @param lbs every load balancer the finding is about, {@code lb} first
     * @throws IllegalArgumentException when {@code lbs} does not start with {@code lb}
     */
    public Finding {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(lb, "lb");
        Objects.requireNonNull(vip, "vip");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(fix, "fix");
        lbs = List.copyOf(lbs);
        if (lbs.isEmpty() || !lbs.get(0).equals(lb)) {
            throw new IllegalArgumentException("lbs " + lbs + " must start with lb " + lb);
        }
    }

    /**
     * A finding about one load balancer.
     *
     * @param code the stable code
     * @param lb the load balancer's spec name
     * @param vip the VIP, when the finding is about one VIP
     * @param message what is wrong
     * @param fix what to do about it
     */
    public Finding(FindingCode code, String lb, Optional<String> vip, String message, String fix) {
        this(code, lb, vip, message, fix, List.of(lb));
    }

    /**
     * The severity, from the code.
     *
     * @return the severity
     */
    public Severity severity() {
        return code.severity();
    }

    @Override
    public String toString() {
        return severity().word() + " " + code.code() + " " + lb + vip.map(v -> " " + v).orElse("") + ": " + message
                + " (fix: " + fix + ")";
    }
}
