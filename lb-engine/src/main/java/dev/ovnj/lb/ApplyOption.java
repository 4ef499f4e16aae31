package dev.ovnj.lb;

/**
 * Options of one {@link LoadBalancerEngine#apply} or {@link LoadBalancerEngine#plan} call:
 * {@link #ALLOW_MASS_DELETE}, or an {@link Adoption} (rows of another owner, or of none, that the
 * specs may take over in place).
 */
public sealed interface ApplyOption permits ApplyOption.Flag, Adoption {
    /**
     * Delete every row the new desired set no longer names, even beyond the engine's
     * {@link DeletionBudget} (the caller knows the set is complete and small on purpose).
     */
    ApplyOption ALLOW_MASS_DELETE = Flag.ALLOW_MASS_DELETE;

    /**
     * The adoption of the rows these selectors name (see {@link Adoption#parse}), e.g.
     * {@code adopt("owner:kube-dc")}, {@code adopt("kube-lb-web")}, {@code adopt("unowned")}.
     *
     * @param selectors one or more selectors
     * @return the adoption
     * @throws IllegalArgumentException naming a malformed selector
     */
    static Adoption adopt(String... selectors) {
        return Adoption.parse(java.util.List.of(selectors));
    }

    /** The options without a parameter. */
    enum Flag implements ApplyOption {
        /** See {@link ApplyOption#ALLOW_MASS_DELETE}. */
        ALLOW_MASS_DELETE
    }
}
