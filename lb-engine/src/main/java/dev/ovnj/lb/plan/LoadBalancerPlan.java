package dev.ovnj.lb.plan;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The difference between an owner's desired load balancers and the database: the changes that
 * would make them equal, what is waiting for a router, switch or group to exist, and conflicts
 * with rows the owner does not own. Empty when the database already matches.
 *
 * @param owner the owner
 * @param changes the changes, in the order they are written
 * @param guards for every owned row the plan changes, the column values it was planned from;
 *     the transaction waits on them so a concurrent writer makes it fail instead of being clobbered
 * @param pending spec name to the reasons it cannot be completed yet
 * @param conflicts human-readable conflicts with foreign rows (reported, never acted on)
 * @param applied spec name to the UUIDs of its rows, for specs already fully in place
 * @param invalid spec name to its validation errors; nothing is planned for these
 * @param held spec name to why its rows would stay although no spec names them (the deletion
 *     budget); nothing is planned for these
 */
public record LoadBalancerPlan(String owner, List<PlanChange> changes, Map<UUID, Map<String, Object>> guards,
                               Map<String, List<String>> pending, List<String> conflicts, Map<String, Set<UUID>> applied,
                               Map<String, List<String>> invalid, Map<String, String> held) {

    /**
     * Copies the collections.
     *
     * @param applied spec name to the UUIDs of its rows, for specs already fully in place
     * @param changes the changes, in the order they are written
     * @param conflicts human-readable conflicts with foreign rows (reported, never acted on)
     * @param guards for every owned row the plan changes, the column values it was planned from; the transaction waits on them so a concurrent writer makes it fail instead of being clobbered
     * @param invalid spec name to its validation errors; nothing is planned for these
     * @param owner the owner
     * @param pending spec name to the reasons it cannot be completed yet
     * @param held spec name to why its rows would stay
     */
    public LoadBalancerPlan {
        changes = List.copyOf(changes);
        guards = Map.copyOf(guards);
        pending = Map.copyOf(pending);
        conflicts = List.copyOf(conflicts);
        applied = Map.copyOf(applied);
        invalid = Map.copyOf(invalid);
        held = Map.copyOf(held);
    }

    /**
     * A plan that holds no deletion back.
     *
     * @param owner the owner
     * @param changes the changes, in the order they are written
     * @param guards for every owned row the plan changes, the column values it was planned from
     * @param pending spec name to the reasons it cannot be completed yet
     * @param conflicts human-readable conflicts with foreign rows
     * @param applied spec name to the UUIDs of its rows, for specs already fully in place
     * @param invalid spec name to its validation errors
     */
    public LoadBalancerPlan(String owner, List<PlanChange> changes, Map<UUID, Map<String, Object>> guards,
                            Map<String, List<String>> pending, List<String> conflicts, Map<String, Set<UUID>> applied,
                            Map<String, List<String>> invalid) {
        this(owner, changes, guards, pending, conflicts, applied, invalid, Map.of());
    }

    /**
     * Returns a copy that also reports invalid specs.
     *
     * @param errors spec name to its errors
     * @return the new plan
     */
    public LoadBalancerPlan withInvalid(Map<String, List<String>> errors) {
        return new LoadBalancerPlan(owner, changes, guards, pending, conflicts, applied, errors, held);
    }

    /**
     * Whether nothing needs writing.
     *
     * @return whether nothing needs writing
     */
    public boolean isEmpty() {
        return changes.isEmpty();
    }

    /** The plan as text, one change per line, then pending specs and conflicts. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        sb.append("plan for owner ").append(owner).append(": ")
                .append(changes.isEmpty() ? held.isEmpty() ? "in sync" : "no change" : changes.size() + " change(s)")
                .append(held.isEmpty() ? "" : ", " + held.size() + " deletion(s) held").append('\n');
        changes.forEach(c -> sb.append("  ").append(c).append('\n'));
        pending.forEach((spec, reasons) -> reasons.forEach(r -> sb.append("  ? ").append(spec).append(" pending: ").append(r).append('\n')));
        conflicts.forEach(c -> sb.append("  ! conflict: ").append(c).append('\n'));
        invalid.forEach((spec, errors) -> errors.forEach(e -> sb.append("  x ").append(spec).append(" invalid: ").append(e).append('\n')));
        held.forEach((spec, why) -> sb.append("  = ").append(spec).append(" kept: ").append(why).append('\n'));
        return sb.toString();
    }
}
