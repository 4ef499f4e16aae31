package dev.ovnj.lb;

/** Options of one {@link LoadBalancerEngine#apply} call. */
public enum ApplyOption {
    /**
     * Delete every row the new desired set no longer names, even beyond the engine's
     * {@link DeletionBudget} (the caller knows the set is complete and small on purpose).
     */
    ALLOW_MASS_DELETE
}
