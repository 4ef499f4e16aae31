package dev.ovnj.lb;

import java.util.Locale;

/**
 * How many of an owner's rows one {@code apply} may delete before the engine holds the deletions
 * back: a desired set read too early (an informer not synced yet, a half-written or emptied file)
 * must not take every load balancer of the owner down with it. Deletions are held when they are
 * more than {@code minRows} rows and more than {@code share} of the owner's rows; creations and
 * updates proceed either way. Held rows stay, their specs show {@link SpecStatus.State#HELD}, and
 * they go with {@link LoadBalancerEngine#releaseHeldDeletions}, an {@code apply} with
 * {@link ApplyOption#ALLOW_MASS_DELETE}, or an {@code apply} whose deletions are within the budget
 * again (the desired set grew back).
 *
 * @param share the fraction of the owner's rows an apply may delete, 0 to 1
 * @param minRows deleting this many rows or fewer is always allowed
 */
public record DeletionBudget(double share, int minRows) {
    /** The default: an apply may delete half of the owner's rows, or 5, whichever is more. */
    public static final DeletionBudget DEFAULT = new DeletionBudget(0.5, 5);

    /**
     * Checks the values.
     *
     * @param share the fraction of the owner's rows an apply may delete, 0 to 1
     * @param minRows deleting this many rows or fewer is always allowed, 0 or more
     */
    public DeletionBudget {
        if (!(share >= 0 && share <= 1)) {
            throw new IllegalArgumentException("deletion budget share must be between 0 and 1: " + share);
        }
        if (minRows < 0) {
            throw new IllegalArgumentException("deletion budget minRows must not be negative: " + minRows);
        }
    }

    /**
     * No budget: every deletion an apply asks for is made at once.
     *
     * @return the budget
     */
    public static DeletionBudget unlimited() {
        return new DeletionBudget(1, Integer.MAX_VALUE);
    }

    /**
     * Whether deleting {@code rows} of {@code ownedRows} exceeds the budget.
     *
     * @param rows rows the apply would delete
     * @param ownedRows rows the owner has in the database
     * @return true when the deletion must be held
     */
    public boolean exceededBy(int rows, int ownedRows) {
        return rows > minRows && rows > share * ownedRows;
    }

    /**
     * The rule in words, e.g. {@code more than 50% of the owner's rows and more than 5}.
     *
     * @return the description
     */
    public String describe() {
        return String.format(Locale.ROOT, "more than %.0f%% of the owner's rows and more than %d", share * 100, minRows);
    }
}
