package dev.ovnj.lb;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.Protocol;
import dev.ovnj.lb.spec.SpecError;
import dev.ovnj.lb.spec.VipSpec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The desired specs of every owner, their versions, and the reverse indexes that tell which specs
 * a database change can concern (by router, switch, group, VIP and row name). Engine thread only,
 * except {@link #claims}, which {@code plan()} reads from any thread.
 */
final class DesiredStore {
    private final Map<String, Map<String, Desired>> owners = new LinkedHashMap<>();
    /** Owners declared with apply(): their complete set, so rows of specs they do not name are deleted. */
    private final Set<String> complete = new HashSet<>();
    private final Map<Attachment, Set<SpecKey>> byTarget = new HashMap<>();
    private final Map<String, Set<SpecKey>> byRowName = new HashMap<>();
    private final VipClaims claims = new VipClaims();
    private final Set<SpecKey> checked = new LinkedHashSet<>();
    private final Map<String, Set<SpecKey>> byCheckedBackend = new HashMap<>();
    /** What each spec's chosen health-check sources watch, and the reverse: a source the engine picked is no declaration. */
    private final Map<SpecKey, Set<String>> watchedBy = new HashMap<>();
    private final Map<String, Set<SpecKey>> byWatched = new HashMap<>();
    private long nextSeq;

    Desired get(SpecKey key) {
        Map<String, Desired> specs = owners.get(key.owner());
        return specs == null ? null : specs.get(key.spec());
    }

    Collection<String> owners() {
        return owners.keySet();
    }

    boolean isComplete(String owner) {
        return complete.contains(owner);
    }

    /** Every key of every owner. */
    List<SpecKey> allKeys() {
        List<SpecKey> out = new ArrayList<>();
        owners.forEach((owner, specs) -> specs.keySet().forEach(s -> out.add(new SpecKey(owner, s))));
        return out;
    }

    /** Names of an owner's specs, desired or being deleted. */
    Set<String> names(String owner) {
        return owners.getOrDefault(owner, Map.of()).keySet();
    }

    /**
     * Declares one spec (valid or not) or its removal ({@code spec == null}).
     *
     * @return the keys this can concern: the spec itself and other owners' specs sharing a VIP
     */
    Set<SpecKey> declare(String owner, String name, LoadBalancerSpec spec, List<SpecError> errors) {
        return declare(owner, name, spec, errors, null);
    }

    /** {@link #declare}, with the foreign rows the declaration may adopt (null: none). */
    Set<SpecKey> declare(String owner, String name, LoadBalancerSpec spec, List<SpecError> errors, Adoption adoption) {
        SpecKey key = new SpecKey(owner, name);
        Map<String, Desired> specs = owners.computeIfAbsent(owner, o -> new LinkedHashMap<>());
        Desired old = specs.get(name);
        Set<SpecKey> affected = new LinkedHashSet<>();
        affected.add(key);
        if (old != null && old.spec() != null) {
            Indexed was = facts(old);
            claims.addSharing(was, affected);
            unindex(key, old, was);
        }
        long seq = old != null && old.spec() != null ? old.seq() : nextSeq++;
        SpecFacts facts = spec != null && errors.isEmpty() ? factsOf(owner, spec) : null;
        Desired next = new Desired(spec, errors, old == null ? 1 : old.generation() + 1, seq, facts, null, spec == null ? null : adoption);
        specs.put(name, next);
        if (spec != null) {
            Indexed now = facts(next);
            index(key, next, errors.isEmpty() ? seq : -1, now);
            claims.addSharing(now, affected);
        }
        return affected;
    }

    /**
     * Declares that the rows of a spec no longer desired stay for now (see {@link Desired#held}).
     *
     * @return the keys this can concern, as for {@link #declare}
     */
    Set<SpecKey> hold(String owner, String name, String reason) {
        Set<SpecKey> affected = declare(owner, name, null, List.of());
        Map<String, Desired> specs = owners.get(owner);
        Desired d = specs.get(name);
        specs.put(name, new Desired(null, List.of(), d.generation(), d.seq(), null, reason, null));
        return affected;
    }

    /** The names of an owner's specs whose rows are held. */
    List<String> held(String owner) {
        List<String> out = new ArrayList<>();
        owners.getOrDefault(owner, Map.of()).forEach((name, d) -> {
            if (d.isHeld()) {
                out.add(name);
            }
        });
        return out;
    }

    /** Marks an owner as declared in full (apply). */
    void markComplete(String owner) {
        complete.add(owner);
    }

    /** Drops a key whose rows are gone. */
    void forget(SpecKey key) {
        Map<String, Desired> specs = owners.get(key.owner());
        if (specs == null) {
            return;
        }
        Desired d = specs.get(key.spec());
        if (d != null && d.removed()) {
            specs.remove(key.spec());
            watch(key, Set.of());
        }
    }

    /**
     * Sets what the health-check sources the engine chose for a spec depend on, as its last
     * judgement found ({@code ip:<source>}: a port taking it; {@code switch:<name>}: a switch with
     * no address left to choose, whose ports changing may free one).
     */
    void watch(SpecKey key, Set<String> watched) {
        Set<String> old = watchedBy.getOrDefault(key, Set.of());
        if (old.equals(watched)) {
            return;
        }
        old.forEach(w -> removeFrom(byWatched, w, key));
        if (watched.isEmpty()) {
            watchedBy.remove(key);
        } else {
            watchedBy.put(key, Set.copyOf(watched));
            watched.forEach(w -> byWatched.computeIfAbsent(w, k -> new LinkedHashSet<>()).add(key));
        }
    }

    /**
     * Specs whose chosen health-check source is this address ({@code ip:10.0.0.254}), or that
     * found no address left on this switch ({@code switch:ls-int}).
     */
    Set<SpecKey> byWatched(String key) {
        return byWatched.getOrDefault(key, Set.of());
    }

    /** The specs that name this router, switch or group. */
    Set<SpecKey> byTarget(Attachment target) {
        return byTarget.getOrDefault(target, Set.of());
    }

    /**
     * Adds the specs that own (or would own) a Load_Balancer row of this name, in any owner, to
     * {@code out}, where {@code known} (may be null) is already: the usual answer for an owned
     * row's name is its own spec alone, added without iterating the set (whose first iteration
     * also left a key-set view behind for as long as the set lives).
     */
    void addByRowName(String rowName, SpecKey known, Set<SpecKey> out) {
        Set<SpecKey> keys = byRowName.get(rowName);
        if (keys == null || keys.size() == 1 && known != null && keys.contains(known)) {
            return;
        }
        out.addAll(keys);
    }

    /**
     * Adds the specs declaring a VIP to {@code out}, where {@code known} (may be null) is already:
     * a row event asks this for every VIP of its row, and the usual answer is only the row's own
     * spec, found without iterating the claims.
     */
    void addByVip(VipKey vipKey, SpecKey known, Set<SpecKey> out) {
        claims.addKeys(vipKey, known, out);
    }

    /** Specs with at least one health check: a port, switch subnet or router network change can affect them. */
    Set<SpecKey> checked() {
        return checked;
    }

    /**
     * Specs checking a backend at this address, or naming this logical switch port for one
     * ({@code ip:10.0.0.2}, {@code port:web1}).
     */
    Set<SpecKey> byCheckedBackend(String key) {
        return byCheckedBackend.getOrDefault(key, Set.of());
    }

    /** Every declared key. */
    Set<SpecKey> all() {
        Set<SpecKey> out = new LinkedHashSet<>();
        owners.forEach((owner, specs) -> specs.keySet().forEach(n -> out.add(new SpecKey(owner, n))));
        return out;
    }

    VipClaims claims() {
        return claims;
    }

    /** A valid spec's facts; null if deriving them fails (the planner then reports it as a failed plan). */
    private static SpecFacts factsOf(String owner, LoadBalancerSpec spec) {
        try {
            return SpecFacts.of(owner, spec);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The facts the indexes need, derived from the spec of an invalid declaration (whose facts are not kept). */
    private static Indexed facts(Desired d) {
        if (d.facts() != null) {
            SpecFacts f = d.facts();
            List<String> names = f.rowNames();
            List<String> vipRows;
            if (names.size() == 1) {
                // Every VIP is on the one row (the common case): no list per VIP.
                vipRows = java.util.Collections.nCopies(d.spec().vips().size(), names.get(0));
            } else {
                vipRows = new ArrayList<>(d.spec().vips().size());
                d.spec().vips().forEach(v -> vipRows.add(f.rowName(v.protocol())));
            }
            return new Indexed(f.targets(), f.vipKeys(), names, vipRows);
        }
        LoadBalancerSpec spec = d.spec();
        List<String> rowNames = new ArrayList<>();
        for (Protocol p : spec.protocols()) {
            rowNames.add(spec.name() + "-" + p.wireValue());
        }
        List<String> vipRows = new ArrayList<>();
        spec.vips().forEach(v -> vipRows.add(spec.name() + "-" + v.protocol().wireValue()));
        return new Indexed(Set.copyOf(Attachment.of(spec)), VipKey.of(spec), rowNames, vipRows);
    }

    /**
     * What the reverse indexes hold for one declaration; the strings and sets are the spec
     * facts' own, so the indexes and claims add no copies of them.
     *
     * @param targets where it is attached
     * @param vipKeys its VIPs' keys
     * @param rowNames its rows' names
     * @param vipRows the row name of each VIP, in the order of the spec's VIPs
     */
    private record Indexed(Set<Attachment> targets, List<VipKey> vipKeys, Collection<String> rowNames, List<String> vipRows) {
    }

    private void index(SpecKey key, Desired d, long seq, Indexed x) {
        LoadBalancerSpec spec = d.spec();
        x.targets().forEach(t -> byTarget.computeIfAbsent(t, k -> new LinkedHashSet<>()).add(key));
        for (String rowName : x.rowNames()) {
            byRowName.computeIfAbsent(rowName, k -> new LinkedHashSet<>()).add(key);
        }
        claims.add(key, x, seq);
        if (d.facts() != null ? d.facts().checked() : dev.ovnj.lb.internal.HealthChecks.any(spec)) {
            checked.add(key);
            checkedBackends(spec).forEach(b -> byCheckedBackend.computeIfAbsent(b, k -> new LinkedHashSet<>()).add(key));
        }
    }

    private void unindex(SpecKey key, Desired d, Indexed x) {
        LoadBalancerSpec spec = d.spec();
        x.targets().forEach(t -> removeFrom(byTarget, t, key));
        for (String rowName : x.rowNames()) {
            removeFrom(byRowName, rowName, key);
        }
        claims.remove(key, x);
        if (checked.remove(key)) {
            checkedBackends(spec).forEach(b -> removeFrom(byCheckedBackend, b, key));
        }
    }

    private static <K> void removeFrom(Map<K, Set<SpecKey>> index, K k, SpecKey key) {
        Set<SpecKey> set = index.get(k);
        if (set != null) {
            set.remove(key);
            if (set.isEmpty()) {
                index.remove(k);
            }
        }
    }

    /** {@code ip:<address>} of every backend of a checked VIP, {@code port:<name>} of every port named for one. */
    static Set<String> checkedBackends(LoadBalancerSpec spec) {
        Set<String> out = new LinkedHashSet<>();
        for (dev.ovnj.lb.spec.VipSpec v : spec.vips()) {
            if (v.healthCheck().isEmpty()) {
                continue;
            }
            for (String b : v.backends()) {
                try {
                    out.add("ip:" + dev.ovnj.lb.spec.Endpoint.parse(b).host());
                } catch (IllegalArgumentException e) {
                    // An invalid spec; nothing to map.
                }
            }
            v.backendPorts().values().forEach(p -> out.add("port:" + p));
            v.healthCheck().get().sourceIp().ifPresent(ip -> addAddress(out, ip));
        }
        if (!out.isEmpty()) {
            // A port taking or freeing a source address makes the source invalid or valid again.
            spec.healthCheckSources().values().forEach(ips -> ips.forEach(ip -> addAddress(out, ip)));
        }
        return out;
    }

    private static void addAddress(Set<String> out, String ip) {
        try {
            out.add("ip:" + dev.ovnj.lb.spec.Endpoint.address(ip).host());
        } catch (IllegalArgumentException e) {
            // An invalid spec; nothing to map.
        }
    }

    /**
     * Which declared spec claimed each VIP first; safe to read from any thread (plan() reads it),
     * written by the engine thread.
     */
    static final class VipClaims {
        private final Map<VipKey, Map<SpecKey, Claim>> byVip = new ConcurrentHashMap<>();

        /**
         * One declaration of a VIP.
         *
         * @param key the spec
         * @param seq its declaration order; -1 for an invalid spec, which claims nothing
         * @param targets where it is attached
         * @param rowName the row that would carry it
         */
        record Claim(SpecKey key, long seq, Set<Attachment> targets, String rowName) {
        }

        private void add(SpecKey key, Indexed x, long seq) {
            for (int i = 0; i < x.vipKeys().size(); i++) {
                byVip.computeIfAbsent(x.vipKeys().get(i), k -> new ConcurrentHashMap<>())
                        .put(key, new Claim(key, seq, x.targets(), x.vipRows().get(i)));
            }
        }

        private void remove(SpecKey key, Indexed x) {
            for (VipKey k : x.vipKeys()) {
                Map<SpecKey, Claim> m = byVip.get(k);
                if (m != null) {
                    m.remove(key);
                    if (m.isEmpty()) {
                        byVip.remove(k);
                    }
                }
            }
        }

        /**
         * The claims on a VIP: a live view (admission asks for every VIP of every spec of a pass,
         * and the common answer is the spec's own claim alone, so it is not copied). Iterating it
         * from another thread sees a weakly consistent state, as a read of the claims did before.
         */
        Collection<Claim> claims(VipKey vipKey) {
            Map<SpecKey, Claim> m = byVip.get(vipKey);
            return m == null ? List.of() : Collections.unmodifiableCollection(m.values());
        }

        /** Adds the specs declaring a VIP to {@code out}; nothing to iterate if the one claim is {@code known}'s. */
        void addKeys(VipKey vipKey, SpecKey known, Set<SpecKey> out) {
            Map<SpecKey, Claim> m = byVip.get(vipKey);
            if (m == null || m.size() == 1 && known != null && m.containsKey(known)) {
                return;
            }
            out.addAll(m.keySet());
        }

        /** Adds the specs declaring any of these VIPs to {@code out}. */
        private void addSharing(Indexed x, Set<SpecKey> out) {
            for (VipKey k : x.vipKeys()) {
                Map<SpecKey, Claim> m = byVip.get(k);
                if (m != null) {
                    out.addAll(m.keySet());
                }
            }
        }
    }
}
