package dev.ovnj.lb;

import dev.ovnj.ovsdb.data.Row;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which load balancers of another owner, or of none, a declaration may take over in place: the
 * explicit, scoped way to move rows written by another tool (kube-dc, Kube-OVN, a script) under
 * the engine without deleting them. Without an adoption such a row is a conflict and never
 * touched; with one, a row it covers whose name or VIP a spec claims becomes the spec's row: same
 * UUID, its {@code ovnj.owner} and {@code ovnj.spec} rewritten, its VIPs changed only where they
 * differ, its router, switch and group references kept, all in one guarded transaction, shown in a
 * plan first as a {@link dev.ovnj.lb.plan.PlanChange.Adopt}. A covered row that also serves VIPs
 * the spec does not declare (a shared row: Kube-OVN keeps every Service of a VPC in
 * {@code vpc-NAME-tcp-load}) is split instead, a {@link dev.ovnj.lb.plan.PlanChange.Split}: the
 * spec's VIPs leave it in the transaction that creates the spec's own row with them, so no VIP is
 * ever absent, and its other VIPs stay where they are, still served by whoever wrote them.
 *
 * <p>{@code owner:NAME} covers the rows whose {@code ovnj.owner} is NAME and the rows without
 * {@code ovnj.owner} whose {@code vendor} is NAME, the mark Kube-OVN writes on its load balancers
 * ({@code vendor=kube-ovn}); {@code owner:kube-dc} covers those too, as kube-dc has Kube-OVN
 * program its Services' load balancers ({@link #ownerNames}).
 *
 * <p>An adopter that claims its addresses ({@code dev.ovnj.nb.eip}: {@code ovnj.eip.<address>=<claim
 * owner>} in a router port's {@code external_ids}) names its claim owner with {@link #claimingAs}:
 * the claims of the adopted row's VIP addresses on the spec's routers' ports then move to it in the
 * adoption's transaction (key re-written, the former claim owner's entry removed only if it is
 * still there).
 *
 * @param rows row names or UUIDs (as text) to adopt
 * @param owners owner names whose rows may be adopted ({@link #ownerNames})
 * @param unowned whether rows without {@code ovnj.owner} may be adopted
 * @param claimOwner the claim owner the adopted addresses' claims move to; empty: claims are left as they are
 */
public record Adoption(Set<String> rows, Set<String> owners, boolean unowned, Optional<String> claimOwner) implements ApplyOption, UpsertOption {
    /** The selector prefix of an owner. */
    public static final String OWNER_PREFIX = "owner:";
    /** The selector prefix of a row name or UUID (optional). */
    public static final String ROW_PREFIX = "row:";
    /** The selector of every row without {@code ovnj.owner}. */
    public static final String UNOWNED = "unowned";
    /** The {@code external_ids} key Kube-OVN marks its rows with (value {@value #KUBE_OVN}). */
    public static final String VENDOR_KEY = "vendor";
    /** Kube-OVN's {@value #VENDOR_KEY}. */
    public static final String KUBE_OVN = "kube-ovn";
    /** kube-dc, whose Services' load balancers Kube-OVN writes (with its own mark). */
    public static final String KUBE_DC = "kube-dc";

    /**
     * Copies the sets; refuses an adoption that covers nothing.
     *
     * @param rows row names or UUIDs (as text) to adopt
     * @param owners {@code ovnj.owner} values whose rows may be adopted
     * @param unowned whether rows without {@code ovnj.owner} may be adopted
     * @param claimOwner the claim owner the adopted addresses' claims move to
     * @throws IllegalArgumentException when it names no row, no owner and not {@code unowned}, or a blank one
     */
    public Adoption {
        Objects.requireNonNull(claimOwner, "claimOwner");
        rows = Set.copyOf(new TreeSet<>(rows));
        owners = Set.copyOf(new TreeSet<>(owners));
        if (rows.isEmpty() && owners.isEmpty() && !unowned) {
            throw new IllegalArgumentException("an adoption names a row, an owner or \"unowned\"");
        }
        if (rows.stream().anyMatch(String::isBlank) || owners.stream().anyMatch(String::isBlank)) {
            throw new IllegalArgumentException("an adopted row or owner must not be blank");
        }
    }

    /**
     * An adoption that leaves address claims as they are.
     *
     * @param rows row names or UUIDs (as text) to adopt
     * @param owners {@code ovnj.owner} values whose rows may be adopted
     * @param unowned whether rows without {@code ovnj.owner} may be adopted
     */
    public Adoption(Set<String> rows, Set<String> owners, boolean unowned) {
        this(rows, owners, unowned, Optional.empty());
    }

    /**
     * This adoption, moving the adopted addresses' claims to a claim owner.
     *
     * @param owner the claim owner, e.g. {@code ns/name} for ovnj-kubernetes
     * @return the adoption
     */
    public Adoption claimingAs(String owner) {
        if (Objects.requireNonNull(owner, "owner").isBlank()) {
            throw new IllegalArgumentException("a claim owner must not be blank");
        }
        return new Adoption(rows, owners, unowned, Optional.of(owner));
    }

    /**
     * The adoption of rows by name or UUID.
     *
     * @param namesOrUuids row names, or UUIDs as text
     * @return the adoption
     */
    public static Adoption rows(String... namesOrUuids) {
        return new Adoption(Set.of(namesOrUuids), Set.of(), false);
    }

    /**
     * The adoption of the rows whose {@code ovnj.owner} is one of these.
     *
     * @param owners the owners
     * @return the adoption
     */
    public static Adoption owners(String... owners) {
        return new Adoption(Set.of(), Set.of(owners), false);
    }

    /**
     * The adoption of rows without {@code ovnj.owner} (written by another tool).
     *
     * @return the adoption
     */
    public static Adoption unownedRows() {
        return new Adoption(Set.of(), Set.of(), true);
    }

    /**
     * Parses selectors: {@code owner:NAME} (rows whose {@code ovnj.owner} is NAME, or without one
     * whose {@code vendor} is NAME; {@code owner:kube-dc} and {@code owner:kube-ovn} cover
     * Kube-OVN's rows), {@code unowned}
     * (rows without {@code ovnj.owner}), {@code row:NAME-OR-UUID} or a bare name or UUID (that
     * row). Each selector may also be a comma-separated list.
     *
     * @param selectors the selectors
     * @return the adoption of all of them
     * @throws IllegalArgumentException naming an empty or malformed selector
     */
    public static Adoption parse(Collection<String> selectors) {
        Set<String> rows = new TreeSet<>();
        Set<String> owners = new TreeSet<>();
        boolean unowned = false;
        for (String list : Objects.requireNonNull(selectors, "selectors")) {
            for (String raw : Objects.requireNonNull(list, "selector").split(",")) {
                String s = raw.trim();
                if (s.isEmpty()) {
                    continue;
                }
                if (s.toLowerCase(Locale.ROOT).equals(UNOWNED)) {
                    unowned = true;
                } else if (s.startsWith(OWNER_PREFIX)) {
                    owners.add(nonEmpty(s, s.substring(OWNER_PREFIX.length())));
                } else if (s.startsWith(ROW_PREFIX)) {
                    rows.add(nonEmpty(s, s.substring(ROW_PREFIX.length())));
                } else {
                    rows.add(s);
                }
            }
        }
        if (rows.isEmpty() && owners.isEmpty() && !unowned) {
            throw new IllegalArgumentException("no adoption selector in " + selectors
                    + " (owner:NAME, unowned, row:NAME-OR-UUID or a row's name or UUID)");
        }
        return new Adoption(rows, owners, unowned);
    }

    private static String nonEmpty(String selector, String value) {
        if (value.isBlank()) {
            throw new IllegalArgumentException("adoption selector \"" + selector + "\" names nothing");
        }
        return value.trim();
    }

    /**
     * This adoption and another one: whatever either covers.
     *
     * @param other the other adoption
     * @return both
     */
    public Adoption and(Adoption other) {
        Set<String> r = new TreeSet<>(rows);
        r.addAll(other.rows);
        Set<String> o = new TreeSet<>(owners);
        o.addAll(other.owners);
        return new Adoption(r, o, unowned || other.unowned, claimOwner.or(other::claimOwner));
    }

    /**
     * Whether a Load_Balancer row may be adopted: named here (by name or UUID), or of an owner
     * named here, or without owner when {@code unowned}.
     *
     * @param row the row
     * @return whether it is covered
     */
    boolean covers(Row row) {
        if (rows.contains(row.uuid().toString()) || rows.contains(Admission.nameOf(row))) {
            return true;
        }
        Optional<String> owner = Admission.ownerOf(row);
        if (owner.isEmpty() && unowned) {
            return true;
        }
        return ownerNames(owner, row.get("external_ids") instanceof java.util.Map<?, ?> ids ? ids : java.util.Map.of())
                .stream().anyMatch(owners::contains);
    }

    /**
     * The names {@code owner:NAME} knows a load balancer by: its {@code ovnj.owner}; without one,
     * its {@code vendor} (Kube-OVN writes {@code vendor=kube-ovn}) and, for Kube-OVN's rows,
     * {@value #KUBE_DC} too (kube-dc has Kube-OVN program its Services).
     *
     * @param ovnjOwner the row's {@code ovnj.owner}, if any
     * @param externalIds the row's {@code external_ids}
     * @return the names, empty when the row carries no mark
     */
    public static Set<String> ownerNames(Optional<String> ovnjOwner, java.util.Map<?, ?> externalIds) {
        if (ovnjOwner.isPresent()) {
            return Set.of(ovnjOwner.get());
        }
        if (externalIds.get(VENDOR_KEY) instanceof String vendor && !vendor.isBlank()) {
            return vendor.equals(KUBE_OVN) ? Set.of(KUBE_OVN, KUBE_DC) : Set.of(vendor);
        }
        return Set.of();
    }

    /**
     * The selectors, as {@link #parse} reads them back.
     *
     * @return e.g. {@code owner:kube-dc, unowned, kube-lb-web}
     */
    @Override
    public String toString() {
        List<String> out = new ArrayList<>();
        owners.forEach(o -> out.add(OWNER_PREFIX + o));
        if (unowned) {
            out.add(UNOWNED);
        }
        out.addAll(rows);
        return String.join(", ", out);
    }

    /** Every adoption among the options, joined; null when there is none. */
    static Adoption of(List<ApplyOption> options) {
        Adoption out = null;
        for (ApplyOption o : options) {
            if (o instanceof Adoption a) {
                out = out == null ? a : out.and(a);
            }
        }
        return out;
    }
}
