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
}
