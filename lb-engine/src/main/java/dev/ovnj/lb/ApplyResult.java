package dev.ovnj.lb;

import java.util.Map;

/**
 * What an {@code apply}, {@code upsert} or {@code remove} achieved, once the database holds it:
 * the status of each of the owner's specs.
 *
 * @param owner the owner
 * @param statuses spec name to status
 */
public record ApplyResult(String owner, Map<String, SpecStatus> statuses) {

    /**
     * Copies the map, unless it is the engine's own immutable status snapshot, which is kept as it
     * is (an answer to one upsert must not cost a copy of every status of a large owner).
     *
     * @param owner the owner
     * @param statuses spec name to status
     */
    public ApplyResult {
        statuses = statuses instanceof StatusSnapshot ? statuses : Map.copyOf(statuses);
    }

    /**
     * Whether every spec is applied (none pending or invalid).
     *
     * @return true when all specs are in the database
     */
    public boolean allApplied() {
        return statuses.values().stream().allMatch(s -> s.state() == SpecStatus.State.APPLIED);
    }

    /**
     * A count per state, then one line per spec that is not APPLIED, e.g.
     * {@code owner kube-dc: 9 APPLIED, 1 CONFLICT} and {@code   kube-dc/web CONFLICT: ...}.
     *
     * @return the summary
     */
    @Override
    public String toString() {
        java.util.Map<SpecStatus.State, Integer> counts = new java.util.EnumMap<>(SpecStatus.State.class);
        statuses.values().forEach(s -> counts.merge(s.state(), 1, Integer::sum));
        StringBuilder sb = new StringBuilder("owner ").append(owner).append(':');
        if (counts.isEmpty()) {
            sb.append(" no specs");
        }
        String sep = " ";
        for (java.util.Map.Entry<SpecStatus.State, Integer> e : counts.entrySet()) {
            sb.append(sep).append(e.getValue()).append(' ').append(e.getKey());
            sep = ", ";
        }
        new java.util.TreeMap<>(statuses).values().stream().filter(s -> s.state() != SpecStatus.State.APPLIED)
                .forEach(s -> sb.append("\n  ").append(s));
        return sb.toString();
    }
}
